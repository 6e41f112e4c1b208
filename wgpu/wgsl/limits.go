package wgsl

// Limits bounds what [Parse] accepts. The zero value of a field other than
// MaxBindings means its [DefaultLimits] value, so Limits{} is safe to use. A
// Limits is a plain value: copy it freely.
type Limits struct {
	// MaxSourceBytes is the longest source accepted, in bytes. Default 1 MiB.
	MaxSourceBytes int
	// MaxNestingDepth bounds nesting anywhere in the source, function
	// bodies included: open parentheses, brackets, braces and template
	// lists, plus the length of the run of prefix unary operators
	// (- ! ~ * &) being read, plus one for every "else if" of the if
	// statement being read (naga nests each else-if one block deeper).
	// Default [DefaultMaxNestingDepth].
	MaxNestingDepth int
	// MaxExpressionTokens bounds the tokens of one expression: the longest
	// run of tokens with no ';', ',', '{' or '}' between them, anywhere in
	// the source. It bounds chains of binary operators (1+1+1+...) and of
	// postfix accesses (a.b.c..., a[0][0]...), which build expression trees
	// as deep as they are long. Default [DefaultMaxExpressionTokens].
	MaxExpressionTokens int
	// MaxDeclarationDepth bounds the longest chain of module-scope
	// declarations that use one another (const A = B; const B = C; ...,
	// fn f0 calls f1 calls f2 ..., struct S0 holds S1 holds S2 ...).
	// Default [DefaultMaxDeclarationDepth].
	MaxDeclarationDepth int
	// MaxBindings is the most bindings (buffers, textures and samplers)
	// one entry point may use (see [EntryPoint.Bindings]), the device's
	// maxBindingsPerBindGroup; the module may declare more. 0 means no
	// limit here.
	MaxBindings int
	// MaxWorkgroupBytes bounds the module's var<workgroup> declarations,
	// summed: the device's maxComputeWorkgroupStorageSize (which
	// wgpu-native 0.17 does not check itself). Default
	// [DefaultMaxWorkgroupBytes].
	MaxWorkgroupBytes int
	// MaxPrivateBytes bounds the var<private> declarations, summed, and
	// each value of an array, struct or alias type that a function body, a
	// const or an override makes (function memory): the compiler's memory
	// grows with them (a 4 MB function-scope array took 2.5 GB to
	// compile). Default [DefaultMaxPrivateBytes].
	MaxPrivateBytes int
	// MaxFunctionTokens bounds the tokens of one function's body: a
	// current compiler's time grows with the square of a body's size (one
	// body of 10,000 statements took naga 30 11 s, the same statements in
	// 100 functions 0.3 s), while the largest function of 217 public
	// compute shaders has 2,408 tokens. Default
	// [DefaultMaxFunctionTokens].
	MaxFunctionTokens int
	// MaxModuleTokens bounds the tokens of the whole module. The
	// compiler's time grows with the square of the module-scope
	// declarations too (4,000 one-line consts took naga 30 5-8 s, 4,000
	// structs 2.3 s), and linearly with the functions (400 functions of
	// 50 statements, 180,000 tokens, 1.9 s), while the largest of 211
	// public compute modules has 3,719 tokens. The source is refused as
	// soon as its tokens pass the limit, without reading the rest.
	// Default [DefaultMaxModuleTokens].
	MaxModuleTokens int
}

// The defaults of [Limits]. The nesting and expression limits sit at about a
// tenth of the smallest depth that overflowed naga's stack in wgpu-native
// (go-webgpu v0.17.1 on Mesa lavapipe, 8 MiB thread stack); see the
// package's tests for the shapes measured.
const (
	DefaultMaxSourceBytes      = 1 << 20
	DefaultMaxNestingDepth     = 128
	DefaultMaxExpressionTokens = 2048
	DefaultMaxDeclarationDepth = 256
	// DefaultMaxWorkgroupBytes is WebGPU's default
	// maxComputeWorkgroupStorageSize.
	DefaultMaxWorkgroupBytes = 16 << 10
	// DefaultMaxPrivateBytes is twice the WGSL specification's minimum
	// supported size of private and function memory (8 KiB).
	DefaultMaxPrivateBytes = 16 << 10
	// DefaultMaxFunctionTokens is 1.7 times the largest function body of
	// the public shaders measured. The costliest body found of that size
	// (341 statements s = s + 1.0 + 1.0 + 1.0 + 1.0, float literals and
	// operators being what naga 30's time grows with) takes it about
	// 0.25 s on one core of a 2-core machine; 8,192 tokens took 1 s.
	DefaultMaxFunctionTokens = 4 << 10
	// DefaultMaxModuleTokens is 2.75 times the largest public compute
	// module measured, and two and a half of the costliest function
	// bodies: with the two defaults above, the costliest modules found
	// check in about 0.5 s (see BenchmarkCheckAtLimits in package wgpu).
	DefaultMaxModuleTokens = 10 << 10
)

// DefaultLimits returns the default limits, with MaxBindings 0 (no limit).
func DefaultLimits() Limits {
	return Limits{
		MaxSourceBytes:      DefaultMaxSourceBytes,
		MaxNestingDepth:     DefaultMaxNestingDepth,
		MaxExpressionTokens: DefaultMaxExpressionTokens,
		MaxDeclarationDepth: DefaultMaxDeclarationDepth,
		MaxWorkgroupBytes:   DefaultMaxWorkgroupBytes,
		MaxPrivateBytes:     DefaultMaxPrivateBytes,
		MaxFunctionTokens:   DefaultMaxFunctionTokens,
		MaxModuleTokens:     DefaultMaxModuleTokens,
	}
}

// withDefaults replaces zero and negative fields by their defaults.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	defaults := d.defaulted()
	for i, f := range l.defaulted() {
		if *f <= 0 {
			*f = *defaults[i]
		}
	}
	if l.MaxBindings < 0 {
		l.MaxBindings = 0
	}
	return l
}

// defaulted returns the fields whose zero value means their default: all
// but MaxBindings.
func (l *Limits) defaulted() [8]*int {
	return [...]*int{&l.MaxSourceBytes, &l.MaxNestingDepth, &l.MaxExpressionTokens,
		&l.MaxDeclarationDepth, &l.MaxWorkgroupBytes, &l.MaxPrivateBytes,
		&l.MaxFunctionTokens, &l.MaxModuleTokens}
}
