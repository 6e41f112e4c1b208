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
		{name: "index 1", want: "1", list: lavapipe, index: 1},
		{name: "index out of range", want: "2", list: lavapipe, errType: ErrorTypeNoAdapter,
			errHas: []string{"adapter 2: there are 2 adapters", `0: "llvmpipe (LLVM 15.0.6, 256 bits)" (Vulkan, CPU)`, "1: ", "(OpenGL, CPU)"}},
		{name: "index of another backend", want: "1", backend: BackendVulkan, list: lavapipe, errType: ErrorTypeNoAdapter,
			errHas: []string{"adapter 1 is a OpenGL adapter, not Vulkan"}},
		{name: "ambiguous name", want: "llvmpipe", list: lavapipe, errType: ErrorTypeInvalidArgument,
			errHas: []string{`adapter name "llvmpipe" is ambiguous: it matches adapters 0, 1; choose one by index`, "(Vulkan, CPU)", "(OpenGL, CPU)"}},
		{name: "name within a backend", want: "LLVMPIPE", backend: BackendOpenGL, list: lavapipe, index: 1},
		{name: "no match", want: "radeon", list: mixed, errType: ErrorTypeNoAdapter,
			errHas: []string{`no adapter named "radeon"; adapters: 0: "NVIDIA GeForce RTX 4090" (Vulkan, DiscreteGPU)`, "(OpenGL, IntegratedGPU)"}},
		{name: "substring, any case", want: "nvidia", list: mixed, index: 0},
		{name: "exact name beats substring", want: "intel(r) uhd graphics 770", list: mixed, index: 1},
		{name: "ambiguous substring", want: "Intel", list: mixed, errType: ErrorTypeInvalidArgument, errHas: []string{"matches adapters 1, 2"}},
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
