//go:build cgo

package wgpu_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
	"github.com/streamgate/streamgate/wgpu/internal/naga"
	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// corpusDir holds public compute shaders written by others (see its
// README.md and MANIFEST.tsv).
const corpusDir = "testdata/corpus"

// corpusModule is one module of the corpus and what became of it.
type corpusModule struct {
	file      string
	source    string
	constants map[string]float64 // values for the overrides without a default
}

// corpusConstants gives every override without a default a value, as a
// user must: 1 (true for a bool) keeps workgroup sizes and array counts
// valid.
func corpusConstants(src string) map[string]float64 {
	m, err := wgsl.Parse(src, wgsl.Limits{})
	if err != nil {
		return nil
	}
	var c map[string]float64
	for _, o := range m.Overrides {
		if !o.HasDefault {
			if c == nil {
				c = map[string]float64{}
			}
			c[o.Name] = 1
		}
	}
	return c
}

// referenceAccepts reports whether a current compiler (naga 30, as a
// reference, outside the package's checks) accepts the module with its
// overrides given values, and whether the module binds only buffers.
func referenceAccepts(ctx context.Context, src string, constants map[string]float64) (ok, buffersOnly bool, why string) {
	bound := src
	if len(constants) > 0 {
		// The reference sees the overrides as consts with the same values.
		bound = wgpu.BindOverridesForTest(src, constants)
	}
	if _, err := naga.Lower(ctx, bound); err != nil {
		return false, false, err.Error()
	}
	return true, !usesHandles(src), ""
}

// int64Literal is a 64-bit integer literal (1l, 2lu), which WebGPU lacks.
var int64Literal = regexp.MustCompile(`\b[0-9]+lu?\b`)

// beyondWebGPU names what a module needs that the reference compiler
// accepts (it validates with every capability naga has) but no WebGPU
// device offers: 64-bit types, float atomics. Such a module is not valid
// WebGPU WGSL; "" for the others.
func beyondWebGPU(src string) string {
	switch {
	case strings.Contains(src, "f64"):
		return "f64"
	case strings.Contains(src, "i64") || strings.Contains(src, "u64") || int64Literal.MatchString(src):
		return "64-bit integers"
	case strings.Contains(src, "atomic<f32>"):
		return "atomic<f32>"
	}
	return ""
}

// usesHandles reports whether a module declares a texture, sampler or
// other non-buffer resource at module scope.
func usesHandles(src string) bool { return handleType.MatchString(src) }

// handleType is a WGSL type that is not a buffer's.
var handleType = regexp.MustCompile(`\b(texture_(1d|2d|3d|cube|multisampled|storage|depth|external)\w*|sampler(_comparison)?|acceleration_structure|binding_array)\b`)

// TestCorpus compiles every compute entry point of every corpus module that
// a current compiler accepts and that binds only buffers, launches it with
// buffers of exactly the reported minimum sizes (the Sync after it must be
// clean), and launches it again with one binding 4 bytes short, which
// Launch must refuse naming the binding. At least 97% of those modules must
// compile and launch, and no module a current compiler accepts may be
// refused for a reason other than what the driver lacks without the test
// listing it. A module that binds textures or samplers is checked and
// lowered (CheckModule), not launched: it must pass, or be refused as
// Unsupported.
func TestCorpus(t *testing.T) {
	d := openTestDevice(t)
	dir, minModules := corpusDir, 150
	if held := os.Getenv("STREAMGATE_CORPUS_DIR"); held != "" {
		dir, minModules = held, 1 // a held-out corpus: go test -run TestCorpus with it set
	}
	var mods []corpusModule
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(path, ".wgsl") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		mods = append(mods, corpusModule{file: filepath.ToSlash(rel), source: string(b), constants: corpusConstants(string(b))})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(mods) < minModules {
		t.Fatalf("corpus has %d modules, want at least %d", len(mods), minModules)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	var (
		invalid, notWebGPU, handles, unsupported int
		valid, ran, entries, entriesRan          int
		failures                                 []string
		refusedHandles                           []string
		handleFailures                           []string

		handlesAccepted, handlesUnsupported, handleEntries, handleEntriesBinding, handleEntriesRan int
	)
	for _, m := range mods {
		ok, buffersOnly, why := referenceAccepts(ctx, m.source, m.constants)
		if !ok {
			invalid++
			t.Logf("%s: invalid for a current compiler: %s", m.file, firstLine(why))
			continue
		}
		if what := beyondWebGPU(m.source); what != "" {
			notWebGPU++
			t.Logf("%s: needs %s, which WebGPU lacks", m.file, what)
			continue
		}
		if !buffersOnly {
			handles++
			// Accepted, checked, lowered and launched with textures and
			// samplers made to fit; or refused as Unsupported naming what
			// the driver lacks; nothing else.
			mi, err := wgpu.CheckModule(ctx, m.source, m.constants, d.Limits())
			var we *wgpu.Error
			switch {
			case err == nil:
				handlesAccepted++
				for _, ep := range mi.EntryPoints {
					if ep.Stage != "compute" {
						continue
					}
					handleEntries++
					k := gpu.NewKernel(m.file, m.source, ep.Name).WithConstants(m.constants)
					switch err := runCorpusEntry(ctx, d, k, ep); {
					case err == nil:
						handleEntriesRan++
					case errors.Is(err, errNoResource):
						t.Logf("%s: %s: %v", m.file, ep.Name, err)
					default:
						handleFailures = append(handleFailures, fmt.Sprintf("%s: %s: %v", m.file, ep.Name, err))
					}
					for _, b := range ep.Bindings {
						if !b.Type.IsBuffer() {
							handleEntriesBinding++
							break
						}
					}
				}
			case errors.As(err, &we) && we.Type == wgpu.ErrorTypeUnsupported:
				handlesUnsupported++
				t.Logf("%s: binds textures or samplers; unsupported by the driver: %v", m.file, err)
			default:
				refusedHandles = append(refusedHandles, fmt.Sprintf("%s: %v", m.file, err))
			}
			continue
		}
		valid++
		fail := func(format string, args ...any) {
			failures = append(failures, m.file+": "+fmt.Sprintf(format, args...))
		}
		mi, err := wgpu.CheckModule(ctx, m.source, m.constants, d.Limits())
		var we *wgpu.Error
		if errors.As(err, &we) && we.Type == wgpu.ErrorTypeUnsupported {
			// Valid WGSL that needs what the driver's compiler predates
			// (enable f16, subgroups): refused up front, naming it.
			valid--
			unsupported++
			t.Logf("%s: unsupported by the driver: %v", m.file, err)
			continue
		}
		if err != nil {
			fail("CheckModule: %v", err)
			continue
		}
		good := true
		for _, ep := range mi.EntryPoints {
			if ep.Stage != "compute" {
				continue
			}
			entries++
			k := gpu.NewKernel(m.file, m.source, ep.Name).WithConstants(m.constants)
			if err := runCorpusEntry(ctx, d, k, ep); err != nil {
				fail("%s: %v", ep.Name, err)
				good = false
				continue
			}
			entriesRan++
		}
		if good {
			ran++
		}
	}
	sort.Strings(failures)
	for _, f := range failures {
		t.Log("FAIL " + f)
	}
	t.Logf("corpus: %d modules; %d invalid for a current compiler, %d need 64-bit types or float atomics (not WebGPU); %d bind textures or samplers; %d need f16 or subgroups, which the driver's compiler lacks (refused as Unsupported); %d valid buffer-only modules, %d compile and launch (%.1f%%); %d of %d entry points",
		len(mods), invalid, notWebGPU, handles, unsupported, valid, ran, 100*float64(ran)/float64(max(valid, 1)), entriesRan, entries)
	if ran*100 < valid*97 {
		t.Errorf("%d of %d valid buffer-only modules compile and launch, want at least 97%%", ran, valid)
	}
	t.Logf("corpus: of the %d modules that bind textures or samplers, %d check and lower (%d compute entry points, %d of them binding a texture or sampler; %d launch and run), %d are refused as Unsupported (binding arrays, ray queries, read or read_write storage textures, f16, subgroups)",
		handles, handlesAccepted, handleEntries, handleEntriesBinding, handleEntriesRan, handlesUnsupported)
	for _, f := range handleFailures {
		t.Errorf("an entry point binding textures or samplers that the driver accepts did not run: %s", f)
	}
	for _, r := range refusedHandles {
		t.Errorf("a module with textures or samplers that a current compiler accepts was refused other than as Unsupported: %s", r)
	}
}

// runCorpusEntry compiles ep, launches it with buffers of exactly the
// minimum sizes and checks a clean Sync, then launches it with one binding
// 4 bytes short and checks that Launch refuses it, naming the binding.
func runCorpusEntry(ctx context.Context, d *wgpu.Device, k *gpu.Kernel, ep wgpu.EntryPointInfo) error {
	if err := d.Compile(ctx, k); err != nil {
		return fmt.Errorf("Compile: %w", err)
	}
	bufs := make([]gpu.Buffer, len(ep.Bindings))
	var releases []func()
	defer func() {
		for _, r := range releases {
			r()
		}
	}()
	short, wrongView := -1, -1
	for i, b := range ep.Bindings {
		if !b.Type.IsBuffer() {
			r, release, err := corpusResource(d, b)
			if err != nil {
				return err
			}
			bufs[i] = r
			releases = append(releases, release)
			if wrongView < 0 && b.Type == wgpu.BindingTexture {
				wrongView = i
			}
			continue
		}
		size := (b.MinSize + 3) &^ 3
		usage := wgpu.BufferUsageStorage | wgpu.BufferUsageCopyDst | wgpu.BufferUsageCopySrc
		if b.Type == wgpu.BindingUniform {
			usage = wgpu.BufferUsageUniform | wgpu.BufferUsageCopyDst
		}
		nb, err := d.NewBuffer(size, usage)
		if err != nil {
			return fmt.Errorf("NewBuffer(%d) for %s: %w", size, b, err)
		}
		bufs[i] = nb
		releases = append(releases, nb.Release)
		if short < 0 && b.MinSize > 4 && b.MinSize%4 == 0 {
			short = i
		}
	}
	stream := gpu.NewStreamID()
	defer d.CloseStream(stream)
	if err := d.Launch(stream, k, [3]uint32{1, 1, 1}, bufs...); err != nil {
		return fmt.Errorf("Launch with minimum sizes: %w", err)
	}
	sctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := d.Sync(sctx, stream); err != nil {
		return fmt.Errorf("Sync: %w", err)
	}
	if wrongView >= 0 {
		// A view of another dimension is refused, naming the binding.
		b := ep.Bindings[wrongView]
		other := wgpu.ViewDimension2D
		if b.Texture.View == wgpu.ViewDimension2D {
			other = wgpu.ViewDimension2DArray
		}
		wrong, release, err := corpusResource(d, wgpu.Binding{Type: b.Type, Texture: wgpu.TextureBinding{View: other, Sample: b.Texture.Sample}})
		if err != nil {
			return err
		}
		defer release()
		wrongBufs := append([]gpu.Buffer(nil), bufs...)
		wrongBufs[wrongView] = wrong
		err = d.Launch(stream, k, [3]uint32{1, 1, 1}, wrongBufs...)
		var we *wgpu.Error
		if !errors.As(err, &we) || we.Type != wgpu.ErrorTypeValidation || !strings.Contains(err.Error(), b.String()) {
			return fmt.Errorf("Launch with a %v view for %s = %v, want a Validation error naming it", other, b, err)
		}
	}
	if short < 0 {
		return nil
	}
	b := ep.Bindings[short]
	small, err := d.NewBuffer(b.MinSize-4, bufs[short].(*wgpu.Buffer).Usage())
	if err != nil {
		return fmt.Errorf("NewBuffer(%d): %w", b.MinSize-4, err)
	}
	defer small.Release()
	shortBufs := append([]gpu.Buffer(nil), bufs...)
	shortBufs[short] = small
	err = d.Launch(stream, k, [3]uint32{1, 1, 1}, shortBufs...)
	var we *wgpu.Error
	if !errors.As(err, &we) || we.Type != wgpu.ErrorTypeValidation || !strings.Contains(err.Error(), b.String()) {
		return fmt.Errorf("Launch with %s 4 bytes short = %v, want a Validation error naming it", b, err)
	}
	return nil
}

// errNoResource marks an entry point whose bindings this device cannot
// make (a multisampled texture, a storage format it lacks): skipped, not
// failed.
var errNoResource = errors.New("no resource for a binding")

// corpusResource makes a texture view or sampler that fits binding b:
// a 4-texel-wide texture of b's dimension in a format of its sample type
// (rgba8unorm filterable, r32float unfilterable, depth32float, r32sint,
// r32uint) or of a storage binding's format, or a sampler of b's kind.
func corpusResource(d *wgpu.Device, b wgpu.Binding) (gpu.Buffer, func(), error) {
	if b.Type == wgpu.BindingSampler {
		desc := wgpu.SamplerDesc{}
		switch b.Sampler {
		case wgpu.SamplerComparison:
			desc.Compare = wgpu.CompareFunctionLess
		case wgpu.SamplerFiltering:
			desc.MinFilter, desc.MagFilter = wgpu.FilterModeLinear, wgpu.FilterModeLinear
		}
		s, err := d.NewSampler(desc)
		if err != nil {
			return nil, nil, fmt.Errorf("NewSampler for %s: %w", b, err)
		}
		return s, s.Release, nil
	}
	tb := b.Texture
	if tb.Multisampled {
		return nil, nil, fmt.Errorf("%w: %s is multisampled", errNoResource, b)
	}
	desc := wgpu.TextureDesc{Width: 4, Height: 4, DepthOrArrayLayers: 1, Usage: wgpu.TextureUsageTextureBinding | wgpu.TextureUsageCopyDst}
	switch tb.View {
	case wgpu.ViewDimension1D:
		desc.Dimension, desc.Height = wgpu.TextureDimension1D, 1
	case wgpu.ViewDimension2DArray:
		desc.DepthOrArrayLayers = 2
	case wgpu.ViewDimensionCube:
		desc.DepthOrArrayLayers = 6
	case wgpu.ViewDimensionCubeArray:
		desc.DepthOrArrayLayers = 12
	case wgpu.ViewDimension3D:
		desc.Dimension, desc.DepthOrArrayLayers = wgpu.TextureDimension3D, 4
	}
	switch {
	case b.Type == wgpu.BindingStorageTexture:
		desc.Format, desc.Usage = tb.Format, wgpu.TextureUsageStorageBinding|wgpu.TextureUsageCopySrc
		if !d.TextureFormatSupported(desc.Format, desc.Usage) {
			return nil, nil, fmt.Errorf("%w: the device has no %v storage texture for %s", errNoResource, desc.Format, b)
		}
	case tb.Sample == wgpu.SampleTypeDepth:
		desc.Format, desc.Usage = wgpu.FormatDepth32Float, wgpu.TextureUsageTextureBinding
	case tb.Sample == wgpu.SampleTypeUnfilterableFloat:
		desc.Format = wgpu.FormatR32Float
	case tb.Sample == wgpu.SampleTypeSint:
		desc.Format = wgpu.FormatR32Sint
	case tb.Sample == wgpu.SampleTypeUint:
		desc.Format = wgpu.FormatR32Uint
	default:
		desc.Format = wgpu.FormatRGBA8Unorm
	}
	t, err := d.NewTexture(desc)
	if err != nil {
		return nil, nil, fmt.Errorf("NewTexture(%+v) for %s: %w", desc, b, err)
	}
	v, err := t.View(tb.View)
	if err != nil {
		t.Release()
		return nil, nil, fmt.Errorf("View(%v) for %s: %w", tb.View, b, err)
	}
	return v, t.Release, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
