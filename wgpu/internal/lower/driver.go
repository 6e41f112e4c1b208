package lower

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// EntryPoint is an entry point of the driver's source: its name there
// (naga renames a function whose name the driver reserves) and its stage.
type EntryPoint struct {
	Name  string
	Stage string // "compute", "vertex" or "fragment"
}

// Result is what [ForDriver] makes of naga 30's output.
type Result struct {
	// Source is the module the driver compiles.
	Source string
	// EntryPoints are its entry points in source order, as naga writes
	// the user's.
	EntryPoints []EntryPoint
	// Map maps a position of Source back to the user's source.
	Map *Map
}

// UnsupportedError is a module the driver's compiler has no way to run,
// whatever the lowering does; Pos is "wgsl:LINE:COL" in the user's source,
// or "wgsl" where the source does not show the construct.
type UnsupportedError struct {
	Pos, Msg string
}

func (e *UnsupportedError) Error() string { return e.Pos + ": " + e.Msg }

// ForDriver rewrites out, naga 30's output for the user's module source
// (read as the tree user), into the driver's dialect (naga 0.13, in
// wgpu-native 0.17), reading it once as a tree:
//
//  1. The driver checks: an extension (enable f16, enable subgroups, ...)
//     or a subgroup built-in or function is an *UnsupportedError at its
//     line and column in source.
//  2. Array values indexed by a non-constant are indexed through variables
//     ([IndexThroughVars]).
//  3. textureLoad's level, array index and sample index are i32
//     ([textureLoadI32]), as the driver's compiler takes them.
//  4. The packed 4x8-bit integer built-ins the module calls get polyfills.
//  5. The [Map] from the result's positions to the user's is made from
//     the declarations both trees name alike.
//
// A module no pass changes comes back byte for byte. Any other error is the
// front-end's, for an output it cannot read (naga's always reads).
func ForDriver(user *wgsl.File, source, out string) (*Result, error) {
	return forDriver(user, source, out)
}

func forDriver(user *wgsl.File, source, out string) (*Result, error) {
	f, err := wgsl.ParseFile(out, lowered)
	if err != nil {
		return nil, fmt.Errorf("lower: reading naga's output: %w", err)
	}
	if err := driverSupports(user, source, f, nagaDriver); err != nil {
		return nil, err
	}
	changed := indexThroughVars(f)
	if textureLoadI32(f) {
		changed = true
	}
	// Last: the polyfills' trees are shared and no pass may rewrite them.
	if addPolyfills(f) {
		changed = true
	}
	r := &Result{Source: out}
	var marks []wgsl.Mark
	if changed {
		r.Source, marks = wgsl.SprintMarks(f)
	}
	for _, d := range f.Decls {
		fn, ok := d.(*wgsl.FuncDecl)
		if !ok {
			continue
		}
		for _, a := range fn.Attrs {
			if a.Name == "compute" || a.Name == "vertex" || a.Name == "fragment" {
				r.EntryPoints = append(r.EntryPoints, EntryPoint{Name: fn.Name, Stage: a.Name})
				break
			}
		}
	}
	r.Map = newMap(user, source, f, r.Source, marks)
	return r, nil
}

// subgroupBuiltins and subgroupFuncs are what naga 0.13 predates.
var (
	subgroupBuiltins = []string{"subgroup_invocation_id", "subgroup_size", "subgroup_id", "num_subgroups"}
	subgroupFuncs    = []string{"subgroupBallot", "subgroupAdd", "subgroupMul", "subgroupBroadcast", "subgroupBroadcastFirst", "subgroupShuffle", "subgroupShuffleXor", "subgroupShuffleUp", "subgroupShuffleDown", "subgroupElect", "subgroupAll", "subgroupAny", "subgroupMax", "subgroupMin", "subgroupAnd", "subgroupOr", "subgroupXor", "subgroupExclusiveAdd", "subgroupInclusiveAdd", "subgroupExclusiveMul", "subgroupInclusiveMul", "subgroupBarrier", "quadBroadcast", "quadSwapX", "quadSwapY", "quadSwapDiagonal"}
)

// nagaDriver is the compiler driverSupports names on the desktop.
const nagaDriver = "the driver's shader compiler (naga 0.13, in wgpu-native 0.17)"

// BrowserDevice is the compiler [Supports] names in a browser: the device
// wgpu's js build opens asks for no optional feature.
const BrowserDevice = "the browser's device (wgpu's js build requests no optional WebGPU feature: shader-f16, subgroups)"

// Supports refuses, in the user's module, what the compiler named by who
// has no way to run: extensions and the subgroup built-ins, at their
// position in source (an *UnsupportedError).
func Supports(user *wgsl.File, source, who string) error {
	return driverSupports(user, source, user, who)
}

// driverSupports refuses what valid WGSL the driver's compiler has no way
// to run: extensions and the subgroup built-ins. The errors point at the
// construct in the user's tree.
func driverSupports(user *wgsl.File, source string, f *wgsl.File, who string) error {
	for _, d := range f.Decls {
		if dd, ok := d.(*wgsl.DirectiveDecl); ok && dd.Keyword == "enable" {
			ext := strings.Join(dd.Names, ", ")
			at := find(user, func(n wgsl.Node) int {
				if ud, ok := n.(*wgsl.DirectiveDecl); ok && ud.Keyword == "enable" {
					return ud.At
				}
				return -1
			})
			return &UnsupportedError{positionOf(source, at), fmt.Sprintf("enable %s: %s has no %s extension", ext, who, ext)}
		}
	}
	var err error
	wgsl.Inspect(f, func(n wgsl.Node) bool {
		if err != nil {
			return false
		}
		switch n := n.(type) {
		case *wgsl.Attribute:
			if n.Name == "builtin" && len(n.Args) == 1 {
				if id, ok := n.Args[0].(*wgsl.Ident); ok && contains(subgroupBuiltins, id.Name) {
					at := find(user, func(n wgsl.Node) int {
						if a, ok := n.(*wgsl.Attribute); ok && a.Name == "builtin" && len(a.Args) == 1 && isIdent(a.Args[0], id.Name) {
							return a.Args[0].Pos()
						}
						return -1
					})
					err = &UnsupportedError{positionOf(source, at), fmt.Sprintf("@builtin(%s): %s has no subgroup operations", id.Name, who)}
				}
			}
		case *wgsl.CallExpr:
			if contains(subgroupFuncs, n.Fn.Name) {
				at := find(user, func(u wgsl.Node) int {
					if c, ok := u.(*wgsl.CallExpr); ok && c.Fn.Name == n.Fn.Name {
						return c.Fn.At
					}
					return -1
				})
				err = &UnsupportedError{positionOf(source, at), fmt.Sprintf("%s: %s has no subgroup operations", n.Fn.Name, who)}
			}
		}
		return err == nil
	})
	return err
}

// ReadableStorageTextures refuses, for the desktop's driver, a storage
// texture that an entry point of m reads (access read or read_write): an
// *UnsupportedError at the variable in source. The driver's shader
// compiler (naga 0.13) reads and validates such a texture, but wgpu-native
// 0.17 binds a storage texture other than write-only only on a device that
// requests its native feature TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES
// (its pipeline otherwise fails: "Storage texture usage GlobalUse(READ)
// doesn't have a matching supported StorageTextureAccess"), and the device
// requests none. A browser's device binds them; [Supports] does not refuse
// them.
func ReadableStorageTextures(m *wgsl.Module, source string) error {
	for _, ep := range m.EntryPoints {
		for _, b := range ep.Bindings {
			if b.Kind != wgsl.StorageTexture || b.Texture.Access == wgsl.AccessWrite {
				continue
			}
			access := "read_write"
			if b.Texture.Access == wgsl.AccessRead {
				access = "read"
			}
			at := find(m.File, func(n wgsl.Node) int {
				if d, ok := n.(*wgsl.VarDecl); ok && d.Keyword == "var" && d.Name == b.Name {
					return d.NamePos
				}
				return -1
			})
			return &UnsupportedError{positionOf(source, at), fmt.Sprintf("var %s: %s: %s storage textures: this driver (wgpu-native 0.17, whose naga 0.13 compiles them) binds only write-only storage textures; read and read_write need its native feature TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES, which the device does not request. Write through a write-only storage texture and read through a sampled texture (textureLoad) instead", b.Name, b.Type, access)}
		}
	}
	return nil
}

// find returns the first position, in source order, that match returns
// for a node of f (-1: not this node), or -1.
func find(f *wgsl.File, match func(wgsl.Node) int) int {
	at := -1
	if f == nil {
		return at
	}
	wgsl.Inspect(f, func(n wgsl.Node) bool {
		if at >= 0 {
			return false
		}
		at = match(n)
		return at < 0
	})
	return at
}

func isIdent(x wgsl.Expr, name string) bool {
	id, ok := x.(*wgsl.Ident)
	return ok && id.Name == name
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// positionOf is "wgsl:LINE:COL" of byte offset off of source, or "wgsl"
// for a negative off (the thing was not found there).
func positionOf(source string, off int) string {
	if off < 0 {
		return "wgsl"
	}
	line := 1 + strings.Count(source[:off], "\n")
	col := 1 + utf8.RuneCountInString(source[strings.LastIndexByte(source[:off], '\n')+1:off])
	return fmt.Sprintf("wgsl:%d:%d", line, col)
}
