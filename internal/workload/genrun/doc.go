// Package genrun holds the steps of the generation demo that the
// terminal (streamgate generate) and the browser page
// (cmd/streamgate-web/app) share: the tuned launch of the warm-up, the
// capture of the prefill and the decode step, the priming of the winners'
// pipelines, the generation replayed token by token, the generation run
// cold (no warm-up), and the figures made of their times.
//
// The functions take the device, client and tuner they use; none keeps
// state between calls, and each is safe to call from any goroutine that
// may use its arguments.
package genrun
