package wgpu

import (
	"errors"
	"strings"
	"testing"
)

func TestSelectAdapter(t *testing.T) {
	// What lavapipe lists: one CPU adapter through two backends.
	lavapipe := []AdapterInfo{
		{Name: "llvmpipe (LLVM 15.0.6, 256 bits)", Backend: BackendVulkan, Type: AdapterTypeCPU},
		{Name: "llvmpipe (LLVM 15.0.6, 256 bits)", Backend: BackendOpenGL, Type: AdapterTypeCPU},
	}
	mixed := []AdapterInfo{
		{Name: "NVIDIA GeForce RTX 4090", Backend: BackendVulkan, Type: AdapterTypeDiscreteGPU},
		{Name: "Intel(R) UHD Graphics 770", Backend: BackendVulkan, Type: AdapterTypeIntegratedGPU},
		{Name: "Intel(R) UHD Graphics 770 (ADL-S GT1)", Backend: BackendOpenGL, Type: AdapterTypeIntegratedGPU},
	}
	tests := []struct {
		name    string
		want    string
		backend Backend
		list    []AdapterInfo
		index   int
		errType ErrorType // 0: no error
		errHas  []string
	}{
		{name: "index 0", want: "0", list: lavapipe, index: 0},
		{name: "index of an OpenGL adapter", want: "1", list: lavapipe, errType: ErrorTypeUnsupported,
			errHas: []string{"adapter 1 is on the OpenGL backend: this package drives Vulkan, Metal and D3D12 adapters only"}},
		{name: "index out of range", want: "2", list: lavapipe, errType: ErrorTypeNoAdapter,
			errHas: []string{"adapter 2: there are 2 adapters", `0: "llvmpipe (LLVM 15.0.6, 256 bits)" (Vulkan, CPU)`, "1: ", "(OpenGL, CPU)"}},
		{name: "index of another backend", want: "1", backend: BackendVulkan, list: lavapipe, errType: ErrorTypeNoAdapter,
			errHas: []string{"adapter 1 is on the OpenGL backend, not Vulkan"}},
		{name: "a name matches the primary backends only", want: "llvmpipe", list: lavapipe, index: 0},
		{name: "name within a backend", want: "LLVMPIPE", backend: BackendVulkan, list: lavapipe, index: 0},
		{name: "no name of a secondary backend", want: "llvmpipe", backend: BackendOpenGL, list: lavapipe, errType: ErrorTypeNoAdapter,
			errHas: []string{`no adapter named "llvmpipe" among the OpenGL adapters`}},
		{name: "ambiguous name", want: "llvmpipe", list: append(lavapipe[:1:1], lavapipe[0]), errType: ErrorTypeInvalidArgument,
			errHas: []string{`adapter name "llvmpipe" is ambiguous among the Vulkan, Metal and D3D12 adapters: it matches adapters 0, 1; choose one by index`, "(Vulkan, CPU)"}},
		{name: "no match", want: "radeon", list: mixed, errType: ErrorTypeNoAdapter,
			errHas: []string{`no adapter named "radeon" among the Vulkan, Metal and D3D12 adapters; adapters: 0: "NVIDIA GeForce RTX 4090" (Vulkan, DiscreteGPU)`, "(OpenGL, IntegratedGPU)"}},
		{name: "substring, any case", want: "nvidia", list: mixed, index: 0},
		{name: "exact name beats substring", want: "intel(r) uhd graphics 770", list: mixed, index: 1},
		{name: "substring unique among the primary backends", want: "Intel", list: mixed, index: 1},
		{name: "ambiguous substring", want: "i", list: mixed, errType: ErrorTypeInvalidArgument, errHas: []string{"matches adapters 0, 1"}},
		{name: "no adapters", want: "0", errType: ErrorTypeNoAdapter, errHas: []string{"there are 0 adapters; there are no adapters"}},
		{name: "negative is a name", want: "-1", list: lavapipe, errType: ErrorTypeNoAdapter, errHas: []string{`no adapter named "-1"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			i, err := selectAdapter(tc.want, tc.backend, tc.list)
			if tc.errType == 0 {
				if err != nil || i != tc.index {
					t.Fatalf("selectAdapter(%q) = %d, %v, want %d", tc.want, i, err, tc.index)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || e.Type != tc.errType {
				t.Fatalf("selectAdapter(%q) = %d, %v, want an error of type %v", tc.want, i, err, tc.errType)
			}
			if got := errors.Is(err, ErrNoAdapter); got != (tc.errType == ErrorTypeNoAdapter) {
				t.Errorf("errors.Is(%v, ErrNoAdapter) = %v", err, got)
			}
			for _, s := range tc.errHas {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
		})
	}
}
