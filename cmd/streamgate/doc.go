// Streamgate is streamgate's command: it runs a real GPU workload the way a
// production Go program uses the library, describes the machine's WebGPU
// adapters, and checks WGSL kernels.
//
// Usage:
//
//	streamgate <command> [flags]
//
// The commands are:
//
//	generate  generation with a KV cache: a prompt prefilled, then a
//	        decode step per token, both captured in a warm-up (every
//	        pipeline compiled, every tunable op autotuned) and replayed,
//	        every token checked against a float64 CPU reference; the time
//	        to first token warm and cold (a child process with empty
//	        caches), the per-token latency and a chart (-json: one JSON
//	        object, its fields listed in the command's help)
//	warmup  a transformer decoder's step (-workload ops: three toy ops): a
//	        warm-up pass (every launch discarded, every pipeline compiled,
//	        every tunable op autotuned on buffers made for the measurement),
//	        then the real pass with the winners, checked against a CPU
//	        reference, and the same step cold (a child process with empty
//	        caches); a chart of the step times
//	        (-json: one JSON object, its fields listed in the command's help)
//	info    the adapters, and the opened device's features and limits
//	        (-json: one JSON object)
//	version the module version and the Go version it was built with
//	        (-json: {"module", "version", "go", "cgo"})
//	bench   the registry and launch benchmarks in one process: a Markdown
//	        table of ns/op, allocs/op and ratios to the baselines, and a
//	        chart of Mode's ns/op against k (PNG and SVG)
//	tune export  the tune cache as versioned JSON lines, keyed by adapter
//	             identity (-cache, -o, -device); with -cache-url, a
//	             fleet's: every entry in that Redis server, with those of
//	             -cache that it lacks
//	tune import  JSON lines written by tune export into the tune cache
//	             (-cache, -i), and into a fleet's Redis server with
//	             -cache-url; a line of another cache version or a
//	             malformed one is refused by number, and nothing is stored
//	bundle export  the tune cache's winners and the kernel cache's
//	               entries in one file (-o, -cache, -kernels, -device)
//	bundle import  a bundle's entries into the caches that lack them
//	               (-cache, -kernels); a damaged, truncated, foreign or
//	               newer bundle is refused, and nothing is stored
//	bundle show    what a bundle holds: its version, maker, adapters,
//	               each tune entry's winner, its kernels
//	wgsl check  WGSL files checked as a compile checks them, without a
//	            device: each one's entry points, their stage, workgroup
//	            size and buffer bindings (group, binding, name, kind, WGSL
//	            type, minimum size), or its errors as FILE:LINE:COL:
//	            message (-D name=value: override constants; -lowered: the
//	            source the driver gets; -json: one JSON object per file)
//	help    usage, a command's flags ("help warmup", "help tune export"),
//	        or a group's subcommands ("help tune", "help wgsl"); -h on any
//	        command prints its help to stdout
//
// Run "streamgate help <command>" for a command's flags.
//
// The exit status is 0 when the command did its work, 1 when the work
// failed, 2 for a usage error and 130 when Ctrl-C interrupted it. A usage
// error is one line and "see 'streamgate help CMD'": an unknown command,
// subcommand or flag, a bad flag value, a -D that no file declares, a
// malformed -cache-url, an -out it cannot write (checked before the work),
// or an explicit -cache that is not a streamgate tune cache (left
// untouched; the line says how to move it aside, or to run with
// -cache ""). Warnings, a library's slog records included, are lines of one
// format on stderr: "streamgate CMD: warning: ...".
//
// The first Ctrl-C stops warmup and generate at the next launch, or
// generate's generation at the next token (a tune or a sync
// already started finishes): it says what was tuned and where it is
// stored, prints with -json the object so far with "interrupted": true,
// and exits 130. A second Ctrl-C exits at once.
package main
