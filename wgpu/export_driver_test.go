//go:build cgo

package wgpu

// DriverCompileForTest compiles lowered, a module in the driver's dialect,
// with the driver's shader compiler alone: a shader module (naga 0.13's
// parse and validation) and a compute pipeline of entry (its SPIR-V
// backend) with the layout the driver derives from the shader, whatever
// its bindings are. Both are released; wgpu-native 0.17 leaks one bind
// group layout per such "auto" pipeline, a few per test run.
func DriverCompileForTest(d *Device, lowered, entry string) error {
	leave, err := d.enter("Compile")
	if err != nil {
		return err
	}
	defer leave()
	m, err := d.createShaderModule("Compile", "driver-test", lowered)
	if err != nil {
		return err
	}
	defer m.release()
	p, err := d.createComputePipeline("Compile", "driver-test", nPipelineLayout{}, m, entry)
	if err != nil {
		return err
	}
	p.release()
	return nil
}
