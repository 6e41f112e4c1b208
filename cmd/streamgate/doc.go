// Streamgate is streamgate's command: it runs a real GPU workload the way a
// production Go program uses the library, and describes the machine's
// WebGPU adapters.
//
// Usage:
//
//	streamgate <command> [flags]
//
// The commands are:
//
//	warmup  a warm-up pass (every launch discarded, every pipeline compiled,
//	        every tunable op autotuned), then the real pass with the winners,
//	        checked against a CPU reference
//	info    the adapters, and the opened device's features and limits
//	bench   the registry and launch benchmarks in one process: a Markdown
//	        table of ns/op, allocs/op and ratios to the baselines, and a
//	        chart of Mode's ns/op against k (PNG and SVG)
//	help    usage, or a command's flags
//
// Run "streamgate help <command>" for a command's flags.
package main
