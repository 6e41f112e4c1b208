package lower

import (
	"errors"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// TestReadableStorageTexturesRefusedOnDesktopOnly: a storage texture an
// entry point reads (read or read_write) is an *UnsupportedError at the
// variable, naming the access and the driver, for the desktop's driver;
// a write-only one, one no entry point uses and every other binding pass;
// the browser's device (Supports with BrowserDevice) refuses none of them.
func TestReadableStorageTexturesRefusedOnDesktopOnly(t *testing.T) {
	const decls = `@group(0) @binding(0) var img: texture_2d<f32>;
@group(0) @binding(1) var smp: sampler;
@group(0) @binding(2) var out: texture_storage_2d<rgba8unorm, write>;
@group(0) @binding(3) var acc: texture_storage_2d<r32float, read_write>;
@group(0) @binding(4) var src: texture_storage_2d<r32uint, read>;
`
	tests := []struct {
		name, body string
		pos, want  string // "": accepted
	}{
		{"write-only", "textureStore(out, vec2<u32>(0u), textureSampleLevel(img, smp, vec2<f32>(), 0.0));", "", ""},
		{"declared-not-used", "_ = textureDimensions(img);", "", ""},
		{"read_write", "textureStore(acc, vec2<u32>(0u), textureLoad(acc, vec2<u32>(0u)));", "wgsl:4:27", "var acc: texture_storage_2d<r32float, read_write>: read_write storage textures: this driver (wgpu-native 0.17"},
		{"read", "textureStore(out, vec2<u32>(0u), vec4<f32>(textureLoad(src, vec2<u32>(0u))));", "wgsl:5:27", "var src: texture_storage_2d<r32uint, read>: read storage textures: this driver"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := decls + "@compute @workgroup_size(1) fn main() { " + tc.body + " }\n"
			m, err := wgsl.Parse(src, wgsl.Limits{})
			if err != nil {
				t.Fatalf("Parse = %v", err)
			}
			err = ReadableStorageTextures(m, src)
			if tc.want == "" {
				if err != nil {
					t.Errorf("ReadableStorageTextures = %v, want nil", err)
				}
			} else {
				var ue *UnsupportedError
				if !errors.As(err, &ue) || ue.Pos != tc.pos || !strings.Contains(ue.Msg, tc.want) || !strings.Contains(ue.Msg, "TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES") {
					t.Errorf("ReadableStorageTextures = %v, want an *UnsupportedError at %s containing %q", err, tc.pos, tc.want)
				}
			}
			if err := Supports(m.File, src, BrowserDevice); err != nil {
				t.Errorf("Supports(BrowserDevice) = %v, want nil", err)
			}
		})
	}
}
