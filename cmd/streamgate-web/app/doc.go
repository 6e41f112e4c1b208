//go:build js && wasm

// Command app is the browser demo of streamgate: the program
// cmd/streamgate-web builds with GOOS=js GOARCH=wasm and serves. In the
// page it runs what streamgate generate runs in a terminal, on the
// browser's WebGPU (navigator.gpu): the warm-up (the prefill and the
// decode step captured under process mode CompileAndAutotune: the kernels
// compile, the tunable ops are tuned on the memory tune cache, nothing
// executes), the generation (the prefill graph replayed once, the decode
// graph once per token), the CPU check of every token and every
// position's logits against the float64 reference, then the same
// generation cold on a fresh device without a warm-up. It shows the
// adapter, the launches, the compiles avoided, the CPU check and the token
// times, with a chart drawn in Go (package page).
//
// The page's query sets the model and the run, as generate's flags do:
// layers, width, heads, vocab, max-seq, prompt-len, tokens, seed, and
// cold=0 to skip the cold run; store=0 keeps the tune cache in memory
// rather than localStorage, and export=1 publishes a bundle of the
// winners (package tune/bundle) in the result.
//
// The program embeds a bundle (embedded.bundle, empty in the source
// tree: none), whose tune winners are behind the page's tune cache;
// streamgate-web -bundle FILE builds it with FILE there, and a first
// visit then tunes none of the keys FILE holds for the browser's adapter.
//
// When it finishes, the page sets document.body.dataset.done to the
// result's state (page.StateDone, page.StateNoWebGPU,
// page.StateNoAdapter or page.StateError) after writing the JSON of its
// page.Result into <script id="result">; a test waits for the first and
// reads the second.
package main
