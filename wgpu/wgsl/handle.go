package wgsl

import "strings"

// The handle types: textures and samplers, the types of the bindings that
// are not buffers. A handle lives in the handle address space, which a
// declaration does not write (var t: texture_2d<f32>), and is not
// host-shareable: no buffer, struct or array holds one.

// handleInfo is what a texture or sampler type declares: the kind of its
// binding and the binding's texture or sampler fields.
type handleInfo struct {
	kind    BindingKind
	texture TextureBinding
	sampler SamplerKind
}

// sampledViews are the sampled texture types that take a sampled type
// (texture_2d<f32>), by name.
var sampledViews = map[string]ViewDimension{
	"texture_1d":         View1D,
	"texture_2d":         View2D,
	"texture_2d_array":   View2DArray,
	"texture_cube":       ViewCube,
	"texture_cube_array": ViewCubeArray,
	"texture_3d":         View3D,
}

// depthViews are the depth texture types, which take no template list.
var depthViews = map[string]TextureBinding{
	"texture_depth_2d":              {View: View2D, Sample: SampleDepth},
	"texture_depth_2d_array":        {View: View2DArray, Sample: SampleDepth},
	"texture_depth_cube":            {View: ViewCube, Sample: SampleDepth},
	"texture_depth_cube_array":      {View: ViewCubeArray, Sample: SampleDepth},
	"texture_depth_multisampled_2d": {View: View2D, Sample: SampleDepth, Multisampled: true},
}

// storageViews are the storage texture types, which take a texel format
// and an access mode.
var storageViews = map[string]ViewDimension{
	"texture_storage_1d":       View1D,
	"texture_storage_2d":       View2D,
	"texture_storage_2d_array": View2DArray,
	"texture_storage_3d":       View3D,
}

// storageAccess maps the access modes a storage texture may declare.
var storageAccess = map[string]StorageAccess{"write": AccessWrite, "read": AccessRead, "read_write": AccessReadWrite}

// sampleTypes maps the sampled types of a sampled texture.
var sampleTypes = map[string]SampleType{"f32": SampleFloat, "i32": SampleSint, "u32": SampleUint}

// unsupportedTypes are the types naga knows that no WebGPU device binds,
// with why.
var unsupportedTypes = map[string]string{
	"binding_array":          "binding arrays are not in WebGPU (neither the driver's device nor the browser's binds an array of resources); declare one binding per resource",
	"acceleration_structure": "ray queries are not in WebGPU (neither the driver's device nor the browser's has acceleration structures)",
	"ray_query":              "ray queries are not in WebGPU (neither the driver's device nor the browser's has acceleration structures)",
}

// isHandleName reports whether name names a texture or sampler type, known
// or not: every texture_* name is reserved for one.
func isHandleName(name string) bool {
	return strings.HasPrefix(name, "texture_") || name == "sampler" || name == "sampler_comparison"
}

// resolveHandle resolves the texture or sampler type name<args> written at
// offset pos (isHandleName(name)); args is nil when there is no template
// list. The type's name is printed canonically: "texture_2d<f32>",
// "texture_storage_2d<rgba8unorm, write>", "sampler".
func (a *analysis) resolveHandle(name string, pos int, args []Expr, nesting int) (*rtype, error) {
	h := &handleInfo{}
	canon := name
	depth, isDepth := depthViews[name]
	switch {
	case name == "sampler" || name == "sampler_comparison":
		if args != nil {
			return nil, a.errf(pos, "type %s takes no template arguments", name)
		}
		h.kind, h.sampler = Sampler, SamplerFiltering
		if name == "sampler_comparison" {
			h.sampler = SamplerComparison
		}
	case name == "texture_external":
		return nil, a.errf(pos, "texture_external is not available to compute shaders here: this package binds no external textures (video frames); copy the frame into a texture_2d<f32>")
	case name == "texture_multisampled_2d" || sampledViews[name] != ViewNone:
		sample, elem, err := a.sampledType(name, pos, args, nesting)
		if err != nil {
			return nil, err
		}
		h.kind = Texture
		h.texture = TextureBinding{View: sampledViews[name], Sample: sample}
		if name == "texture_multisampled_2d" {
			h.texture.View, h.texture.Multisampled = View2D, true
			if sample == SampleFloat {
				// WebGPU filters no multisampled texture: a float one binds
				// as unfilterable-float, as its default layout has it.
				h.texture.Sample = SampleUnfilterableFloat
			}
		}
		canon = name + "<" + elem + ">"
	case isDepth:
		if args != nil {
			return nil, a.errf(pos, "type %s takes no template arguments", name)
		}
		h.kind, h.texture = Texture, depth
	case storageViews[name] != ViewNone:
		format, access, err := a.storageArgs(name, pos, args)
		if err != nil {
			return nil, err
		}
		h.kind = StorageTexture
		h.texture = TextureBinding{View: storageViews[name], Format: format, Access: access}
		canon = name + "<" + format.String() + ", " + enumerant(args[1]) + ">"
	default:
		return nil, a.errf(pos, "unknown type %s", name)
	}
	return &rtype{kind: tOther, name: canon, noShare: canon + " is not host-shareable", handle: h}, nil
}

// sampledType resolves the one template argument of a sampled texture
// type: f32, i32 or u32, or an alias of one.
func (a *analysis) sampledType(name string, pos int, args []Expr, depth int) (SampleType, string, error) {
	if len(args) != 1 {
		return 0, "", a.errf(pos, "%s takes one template argument, the sampled type (f32, i32 or u32)", name)
	}
	if id, ok := args[0].(*Ident); ok && id.Template == nil {
		_, scalar := scalarTypes[id.Name]
		_, declared := a.decls[id.Name]
		if _, ok := sampleTypes[id.Name]; !ok && (scalar || !declared && !predeclared(id.Name)) {
			return 0, "", a.errf(id.At, "%s<%s>: the sampled type must be f32, i32 or u32", name, id.Name)
		}
	}
	elem, err := a.resolveType(args[0], depth+1)
	if err != nil {
		return 0, "", err
	}
	s, ok := sampleTypes[elem.name]
	if !ok {
		return 0, "", a.errf(args[0].Pos(), "%s<%s>: the sampled type must be f32, i32 or u32", name, elem.name)
	}
	return s, elem.name, nil
}

// storageArgs reads the template list of a storage texture type: a texel
// format WGSL allows for storage and an access mode.
func (a *analysis) storageArgs(name string, pos int, args []Expr) (TexelFormat, StorageAccess, error) {
	if len(args) != 2 {
		return 0, 0, a.errf(pos, "%s takes two template arguments, a texel format and an access mode (%s<rgba8unorm, write>)", name, name)
	}
	fname, aname := enumerant(args[0]), enumerant(args[1])
	if fname == "" {
		return 0, 0, a.errf(args[0].Pos(), "%s: the texel format must be a name (rgba8unorm, r32float, ...), not %s", name, firstText(args[0]))
	}
	format, ok := ParseTexelFormat(fname)
	if !ok {
		return 0, 0, a.errf(args[0].Pos(), "%s<%s, ...>: unknown texel format %s", name, fname, fname)
	}
	if !format.StorageFormat() {
		return 0, 0, a.errf(args[0].Pos(), "%s<%s, ...>: WGSL does not allow %s as a storage texture's format (%s)", name, fname, fname, strings.Join(storageFormatNames(), ", "))
	}
	access, ok := storageAccess[aname]
	if !ok {
		what := aname
		if what == "" {
			what = firstText(args[1])
		}
		return 0, 0, a.errf(args[1].Pos(), "%s<%s, %s>: the access mode must be write, read or read_write", name, fname, what)
	}
	return format, access, nil
}

// enumerant returns the name x is when it is a plain identifier (a texel
// format, an access mode), else "".
func enumerant(x Expr) string {
	if id, ok := x.(*Ident); ok && id.Template == nil {
		return id.Name
	}
	return ""
}

// storageFormatNames lists the formats WGSL allows for storage textures.
func storageFormatNames() []string {
	var names []string
	for f := FormatNone + 1; f < formatCount; f++ {
		if f.StorageFormat() {
			names = append(names, f.String())
		}
	}
	return names
}

// handleType resolves the type specifier x when it names a handle type,
// directly or through aliases; it returns nil and no error when x names no
// handle type.
func (a *analysis) handleType(x Expr) (*rtype, error) {
	for range a.lim.MaxDeclarationDepth + 1 {
		id, ok := x.(*Ident)
		if !ok {
			return nil, nil
		}
		if isHandleName(id.Name) {
			return a.resolveType(id, 0)
		}
		al, ok := a.decls[id.Name].(*AliasDecl)
		if !ok || id.Template != nil {
			return nil, nil
		}
		x = al.Type
	}
	return nil, nil
}
