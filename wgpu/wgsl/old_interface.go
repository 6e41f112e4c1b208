package wgsl

import "sort"

// slotBinding is a buffer binding with the declaration it comes from.
type slotBinding struct {
	b Binding
	d *decl
}

// less orders bindings by (Group, Index), then by source position.
func (a slotBinding) less(b slotBinding) bool {
	if a.b.Group != b.b.Group {
		return a.b.Group < b.b.Group
	}
	if a.b.Index != b.b.Index {
		return a.b.Index < b.b.Index
	}
	return a.d.pos < b.d.pos
}

// interfaces fills in the Bindings of every entry point of m: the buffer
// bindings its function statically uses, in its body or in the body of a
// function it calls, transitively. eps are the fn declarations of
// m.EntryPoints, in the same order; bindings maps each binding's variable
// to its Binding. It refuses an entry point that uses two variables sharing
// a @group and @binding, or more than MaxBindings bindings.
func (p *parser) interfaces(m *Module, eps []*decl, bindings map[*decl]Binding, res *oldResolution) error {
	seen := map[*decl]int{} // the entry point (index + 1) that last visited each declaration
	work := 0
	var stack []*decl
	var used []slotBinding
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
				return p.limitf(ep.pos, "entry point %s: the entry points visit more than %d functions and variables in all, the limit of this front-end", ep.name, maxInterfaceWork)
			}
			for _, u := range res.uses[d] {
				if seen[u] == stamp {
					continue
				}
				seen[u] = stamp
				switch u.kind {
				case declFn:
					stack = append(stack, u)
				case declVar:
					if b, ok := bindings[u]; ok {
						used = append(used, slotBinding{b, u})
					}
				}
			}
		}
		sort.Slice(used, func(i, j int) bool { return used[i].less(used[j]) })
		for k := 1; k < len(used); k++ {
			a, b := used[k-1], used[k]
			if a.b.Group == b.b.Group && a.b.Index == b.b.Index {
				return p.errf(b.d.pos, "binding %d (%s): entry point %s uses both %s and %s, which share @group(%d) @binding(%d)", b.b.Index, b.b.Name, ep.name, a.b.Name, b.b.Name, b.b.Group, b.b.Index)
			}
		}
		if lim := p.lim.MaxBindings; lim > 0 && len(used) > lim {
			return p.limitf(used[lim].d.pos, "entry point %s uses %d buffer bindings, more than the limit of %d (maxBindingsPerBindGroup)", ep.name, len(used), lim)
		}
		var list []Binding
		for _, u := range used {
			list = append(list, u.b)
		}
		m.EntryPoints[i].Bindings = list
	}
	return nil
}
