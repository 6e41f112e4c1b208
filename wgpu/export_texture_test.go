//go:build cgo || (js && wasm)

package wgpu

// Test hooks of textures, in both builds.

// ViewLive is v.live: the error a launch binding v gets for its liveness.
func ViewLive(v *TextureView) error { return v.live("test") }

// TextureLive is t.live.
func TextureLive(t *Texture) error { return t.live("test") }

// SamplerLive is s.live.
func SamplerLive(s *Sampler) error { return s.live("test") }

// TextureUsers returns how many streams have pending work that binds t.
func TextureUsers(t *Texture) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.users)
}
