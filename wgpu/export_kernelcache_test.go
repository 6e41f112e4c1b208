//go:build cgo

package wgpu

// ForgetKernels forgets what this process lowered and warned, as a new
// process would: the next lowering of a source consults the store.
func ForgetKernels() {
	h := currentKernels()
	h.memo.Clear()
	h.marked.Store(false)
	kernelWarned.Clear()
}

// SetBuildIdentity makes the kernel cache's keys those of a build named id
// (another version of the module) until restore.
func SetBuildIdentity(id string) (restore func()) {
	old := buildIdentity
	buildIdentity = func() string { return id }
	return func() { buildIdentity = old }
}

// KernelsWarm reports whether the process's kernel store holds this
// build's warm mark.
func KernelsWarm() bool { return kernelsWarm() }
