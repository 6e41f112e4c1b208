package wgpu_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu"
)

// TestCheckModuleUnsupported: valid WGSL that the driver's compiler has no
// way to run is refused as Unsupported at the user's line and column, not
// with the old compiler's parse error.
func TestCheckModuleUnsupported(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"enable-f16", "// we enable f16 below\nenable f16;\n@group(0) @binding(0) var<storage, read_write> x: array<f16>;\n@compute @workgroup_size(1) fn main() { x[0] = 1.0h; }",
			"wgsl:2:1: enable f16"},
		{"subgroups", "enable subgroups;\n@group(0) @binding(0) var<storage, read_write> x: array<u32>;\n@compute @workgroup_size(32) fn main(@builtin(subgroup_invocation_id) i: u32) { x[i] = i; }",
			"subgroup"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := wgpu.CheckModule(context.Background(), tc.src, nil, wgpu.Limits{})
			var we *wgpu.Error
			if !errors.As(err, &we) || (we.Type != wgpu.ErrorTypeUnsupported && we.Type != wgpu.ErrorTypeValidation) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("CheckModule = %v, want an Unsupported error containing %q", err, tc.want)
			}
			if tc.name == "enable-f16" && we.Type != wgpu.ErrorTypeUnsupported {
				t.Errorf("CheckModule type = %v, want Unsupported", we.Type)
			}
		})
	}
}

// TestCheckModuleLongBody: one function body long enough to take the
// compiler minutes (its time grows with the square of a body) is refused
// as a Limit before the compiler sees it.
func TestCheckModuleLongBody(t *testing.T) {
	src := "@compute @workgroup_size(1) fn main() { var x = 0;" + strings.Repeat(" x = x + 1;", 1000) + " }"
	_, err := wgpu.CheckModule(context.Background(), src, nil, wgpu.Limits{})
	var we *wgpu.Error
	if !errors.As(err, &we) || we.Type != wgpu.ErrorTypeLimit || !strings.Contains(err.Error(), "fn main") {
		t.Fatalf("CheckModule(1,000 statements in one body) = %v, want a Limit error naming fn main", err)
	}
}

// TestCheckModuleSubgroupNames: a field or variable merely named like a
// subgroup built-in is not a use of subgroups.
func TestCheckModuleSubgroupNames(t *testing.T) {
	src := `struct P { subgroup_size: u32 }
@group(0) @binding(0) var<uniform> p: P;
@group(0) @binding(1) var<storage, read_write> x: array<u32>;
@compute @workgroup_size(1) fn main() { let num_subgroups = p.subgroup_size; x[0] = num_subgroups; }`
	if _, err := wgpu.CheckModule(context.Background(), src, nil, wgpu.Limits{}); err != nil {
		t.Fatalf("CheckModule(names like subgroup built-ins) = %v, want nil", err)
	}
}
