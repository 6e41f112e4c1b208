package wgsl_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// spanned is an Override with its spans replaced by the text they cover,
// "" for a zero Span.
type spanned struct {
	Name                                  string
	ID                                    uint32
	HasID                                 bool
	Type                                  string
	HasDefault                            bool
	Decl, Keyword, IDAttr, TypeSpan, Init string
}

func textOf(src string, s wgsl.Span) string {
	if s == (wgsl.Span{}) {
		return ""
	}
	return src[s.Start:s.End]
}

func TestParseOverrides(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []spanned
	}{
		{"type-only", "override a: u32;", []spanned{
			{Name: "a", Type: "u32", Decl: "override a: u32;", Keyword: "override", TypeSpan: "u32"}}},
		{"init-only", "override b = 1.5 * 2.0;", []spanned{
			{Name: "b", HasDefault: true, Decl: "override b = 1.5 * 2.0;", Keyword: "override", Init: "1.5 * 2.0"}}},
		{"id-type-init", "@id(7) override c: f32 = 0.5;", []spanned{
			{Name: "c", ID: 7, HasID: true, Type: "f32", HasDefault: true, Decl: "@id(7) override c: f32 = 0.5;", Keyword: "override", IDAttr: "@id(7)", TypeSpan: "f32", Init: "0.5"}}},
		{"comments-between", "const K = 3u;\n/* before */ @id( K + 1u ) /* a */ override /* b */ d /* c */ : /* d */ i32 /* e */ = /* f */ -(2) + 1 /* g */ ; // after", []spanned{
			{Name: "d", ID: 4, HasID: true, Type: "i32", HasDefault: true,
				Decl: "@id( K + 1u ) /* a */ override /* b */ d /* c */ : /* d */ i32 /* e */ = /* f */ -(2) + 1 /* g */ ;", Keyword: "override",
				IDAttr: "@id( K + 1u )", TypeSpan: "i32", Init: "-(2) + 1"}}},
		{"attr-spaced", "@ id\n(0x10)\noverride e:bool=true;", []spanned{
			{Name: "e", ID: 16, HasID: true, Type: "bool", HasDefault: true, Decl: "@ id\n(0x10)\noverride e:bool=true;", Keyword: "override", IDAttr: "@ id\n(0x10)", TypeSpan: "bool", Init: "true"}}},
		{"alias-type", "alias U = u32;\noverride f: U = 2u;", []spanned{
			{Name: "f", Type: "u32", HasDefault: true, Decl: "override f: U = 2u;", Keyword: "override", TypeSpan: "U", Init: "2u"}}},
		{"f16-and-unicode", "enable f16;\nconst ñ = 1;\n@id(ñ) override ĥ: f16 = 1h;", []spanned{
			{Name: "ĥ", ID: 1, HasID: true, Type: "f16", HasDefault: true, Decl: "@id(ñ) override ĥ: f16 = 1h;", Keyword: "override", IDAttr: "@id(ñ)", TypeSpan: "f16", Init: "1h"}}},
		{"source-order", "override z: u32;\nfn g() {}\n@id(0) override y = 1u;", []spanned{
			{Name: "z", Type: "u32", Decl: "override z: u32;", Keyword: "override", TypeSpan: "u32"},
			{Name: "y", ID: 0, HasID: true, HasDefault: true, Decl: "@id(0) override y = 1u;", Keyword: "override", IDAttr: "@id(0)", Init: "1u"}}},
		{"init-uses-override", "override w: u32 = 4u;\noverride h = w * (w + 1u);", []spanned{
			{Name: "w", Type: "u32", HasDefault: true, Decl: "override w: u32 = 4u;", Keyword: "override", TypeSpan: "u32", Init: "4u"},
			{Name: "h", HasDefault: true, Decl: "override h = w * (w + 1u);", Keyword: "override", Init: "w * (w + 1u)"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := wgsl.Parse(tc.src, wgsl.Limits{})
			if err != nil {
				t.Fatalf("Parse(%q) = %v, want no error", tc.src, err)
			}
			if len(m.Overrides) != len(tc.want) {
				t.Fatalf("Parse(%q).Overrides = %+v, want %d", tc.src, m.Overrides, len(tc.want))
			}
			for i, o := range m.Overrides {
				got := spanned{o.Name, o.ID, o.HasID, o.Type, o.HasDefault,
					textOf(tc.src, wgsl.Span{Start: o.Decl.Pos(), End: o.Decl.End}), textOf(tc.src, o.Keyword), textOf(tc.src, o.IDAttr), textOf(tc.src, o.TypeSpan), textOf(tc.src, o.Init)}
				if got != tc.want[i] {
					t.Errorf("Parse(%q).Overrides[%d] = %+v, want %+v", tc.src, i, got, tc.want[i])
				}
				if !slices.Contains(m.File.Decls, wgsl.Decl(o.Decl)) || o.Decl.Name != o.Name || o.Decl.Keyword != "override" {
					t.Errorf("Parse(%q).Overrides[%d].Decl = %+v, want the override's declaration in Module.File", tc.src, i, o.Decl)
				}
			}
		})
	}
}

func TestParseOverridesErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
		line int
	}{
		{"vector-type", "override v: vec2f;", "override v: type vec2<f32> is not a scalar", 1},
		{"unknown-type", "override v: T;", "override v: unknown type T", 1},
		{"f16-no-enable", "override v: f16;", "override v: f16 needs the directive 'enable f16;'", 1},
		{"id-too-big", "@id(65536) override v: u32;", "override v: @id(65536) is more than 65535", 1},
		{"id-negative", "@id(-1) override v: u32;", "not a valid index", 1},
		{"id-not-const", "override o: u32;\n@id(o) override v: u32;", "@id(o): o is an override, not a const", 2},
		{"id-twice", "@id(3) override a: u32;\n@id(1 + 2) override b: u32;", "override b: @id(3) is already used by override a", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := wgsl.Parse(tc.src, wgsl.Limits{})
			var e *wgsl.Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse(%q) = %+v, %v, want an *Error containing %q", tc.src, m, err, tc.want)
			}
			if !strings.Contains(e.Msg, tc.want) || e.Line != tc.line {
				t.Errorf("Parse(%q) = %v, want %q on line %d", tc.src, err, tc.want, tc.line)
			}
		})
	}
}
