//go:build cgo || (js && wasm)

package wgpu

// Test hooks of textures, in both builds.

// ViewLive is v.live: the error a launch binding v gets for its liveness.
func ViewLive(v *TextureView) error { return v.live("test") }

// TextureLive is t.live.
func TextureLive(t *Texture) error { return t.live("test") }

// SamplerLive is s.live.
func SamplerLive(s *Sampler) error { return s.live("test") }

// TextureUsers returns how many streams have pending work that binds one
// of t's views.
func TextureUsers(t *Texture) int {
	t.mu.Lock()
	views := t.views
	t.mu.Unlock()
	n := 0
	for _, v := range views {
		if v != nil {
			v.slot.mu.Lock()
			n += len(v.slot.users)
			v.slot.mu.Unlock()
		}
	}
	return n
}
