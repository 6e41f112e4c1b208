//go:build !cgo && !(js && wasm)

package wgpu

// The texture calls of a build without a device (see device_none.go):
// none is reached.

type (
	texHandle     = int
	viewHandle    = int
	samplerHandle = int
)

func (d *Device) hasBGRA8Storage() bool { return false }
func (d *Device) newTexHandle(op string, _ TextureDesc) (texHandle, error) {
	return 0, noCgo(op)
}
func (d *Device) newViewHandle(op string, _ texHandle, _ TextureDesc, _ ViewDimension) (viewHandle, error) {
	return 0, noCgo(op)
}
func (d *Device) newSamplerHandle(op string, _ SamplerDesc) (samplerHandle, error) {
	return 0, noCgo(op)
}
func (d *Device) dropTexture(texHandle)      {}
func (d *Device) dropTextureView(viewHandle) {}
func (d *Device) dropSampler(samplerHandle)  {}
func (d *Device) settleDropped()             {}
func (d *Device) queueWriteTexture(op string, _ texHandle, _, _ [3]uint32, _ uint32, _ []byte) error {
	return noCgo(op)
}
func (d *Device) readTextureStart(op string, _ texHandle, _, _ [3]uint32, _ uint32, _ bufHandle, _ uint64, _ mapWord) (bool, error) {
	return false, noCgo(op)
}
