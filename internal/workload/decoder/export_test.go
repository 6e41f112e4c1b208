package decoder

// StageOps returns the op of each stage, in order, of c's Model step, of
// a Generator's prefill and of its decode step, as the description lists
// them.
func StageOps(c Config) (model, prefill, decode []string) {
	ops := func(stages []stage) []string {
		var s []string
		for _, st := range stages {
			s = append(s, st.op)
		}
		return s
	}
	return ops(c.modelStages()), ops(c.prefillStages()), ops(c.decodeStages())
}
