package wgsl

import "sort"

// maxInterfaceWork bounds the work of finding every entry point's
// bindings: the functions, calls and variables visited, summed over the
// entry points. Each entry point walks its own call graph, so the work is
// the number of entry points times the size of what they call, which a
// small adversarial source can make quadratic; real modules stay orders of
// magnitude below the bound, which keeps Parse linear in its input.
const maxInterfaceWork = 1 << 21

// usedBinding is a binding with the declaration it comes from.
type usedBinding struct {
	b Binding
	d *VarDecl
}

// less orders bindings by (Group, Index), then by source position.
func (a usedBinding) less(b usedBinding) bool {
	if a.b.Group != b.b.Group {
		return a.b.Group < b.b.Group
	}
	if a.b.Index != b.b.Index {
		return a.b.Index < b.b.Index
	}
	return a.d.NamePos < b.d.NamePos
}

// interfaces fills in the Bindings of every entry point of m: the bindings
// (buffers, textures, samplers) its function statically uses, in its body or in the body of a
// function it calls, transitively. eps are the functions of m.EntryPoints,
// in the same order; bindings maps each binding's variable to its Binding.
// It refuses an entry point that uses two variables sharing a @group and
// @binding, or more than MaxBindings bindings.
func (a *analysis) interfaces(m *Module, eps []*FuncDecl, bindings map[*VarDecl]Binding, res *resolution) error {
	seen := map[Decl]int{} // the entry point (index + 1) that last visited each declaration
	work := 0
	var stack []*FuncDecl
	var used []usedBinding
	for i, ep := range eps {
		stamp := i + 1
		stack = append(stack[:0], ep)
		seen[ep] = stamp
		used = used[:0]
		for len(stack) > 0 {
			d := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			work += 1 + len(res.uses[d])
			if work > maxInterfaceWork {
				return a.limitf(ep.NamePos, "entry point %s: the entry points visit more than %d functions and variables in all, the limit of this front-end", ep.Name, maxInterfaceWork)
			}
			for _, u := range res.uses[d] {
				if seen[u] == stamp {
					continue
				}
				seen[u] = stamp
				switch u := u.(type) {
				case *FuncDecl:
					stack = append(stack, u)
				case *VarDecl:
					if b, ok := bindings[u]; ok {
						used = append(used, usedBinding{b, u})
					}
				}
			}
		}
		sort.Slice(used, func(i, j int) bool { return used[i].less(used[j]) })
		for k := 1; k < len(used); k++ {
			x, y := used[k-1], used[k]
			if x.b.Group == y.b.Group && x.b.Index == y.b.Index {
				return a.errf(y.d.NamePos, "binding %d (%s): entry point %s uses both %s and %s, which share @group(%d) @binding(%d)", y.b.Index, y.b.Name, ep.Name, x.b.Name, y.b.Name, y.b.Group, y.b.Index)
			}
		}
		if lim := a.lim.MaxBindings; lim > 0 && len(used) > lim {
			what := "buffer bindings"
			for _, u := range used {
				if !u.b.Kind.IsBuffer() {
					what = "bindings (buffers, textures and samplers)"
					break
				}
			}
			return a.limitf(used[lim].d.NamePos, "entry point %s uses %d %s, more than the limit of %d (maxBindingsPerBindGroup)", ep.Name, len(used), what, lim)
		}
		var list []Binding
		for _, u := range used {
			list = append(list, u.b)
		}
		m.EntryPoints[i].Bindings = list
	}
	return nil
}
