package wgsl

import "strings"

// checkDependencies builds the graph of module-scope declarations that use
// one another, rejects cycles, and bounds its longest chain by
// MaxDeclarationDepth: naga resolves declarations in dependency order by a
// recursive walk. A function's uses are those res found: in its body, names
// it declares itself do not count.
func (p *parser) checkDependencies(res *oldResolution) error {
	index := make(map[*decl]int, len(p.order))
	for i, d := range p.order {
		index[d] = i
	}
	edges := make([][]int, len(p.order))
	for i, d := range p.order {
		if d.kind == declFn {
			for _, u := range res.uses[d] {
				edges[i] = append(edges[i], index[u])
			}
			continue
		}
		spans := []span{d.typ, d.init}
		for _, a := range d.attrs {
			spans = append(spans, a.args...)
		}
		for _, m := range d.members {
			spans = append(spans, m.typ)
			for _, a := range m.attrs {
				spans = append(spans, a.args...)
			}
		}
		seen := map[int]bool{}
		for _, s := range spans {
			for j := s.a; j < s.b; j++ {
				t := p.toks[j]
				if t.kind != tkIdent || t.pos == d.pos {
					continue
				}
				if j > 0 && p.toks[j-1].kind == tkPunct {
					switch p.toks[j-1].text {
					case ".":
						continue
					case "@":
						switch t.text {
						case "builtin", "interpolate", "diagnostic":
							if j+1 < s.b && p.toks[j+1].text == "(" {
								j = p.matching(j + 1)
							}
						}
						continue
					}
				}
				if u, ok := p.decls[t.text]; ok && !seen[index[u]] {
					seen[index[u]] = true
					edges[i] = append(edges[i], index[u])
				}
			}
		}
	}
	// Iterative depth-first search: state 0 new, 1 on the stack, 2 done.
	state := make([]uint8, len(p.order))
	depth := make([]int, len(p.order))
	for root := range p.order {
		if state[root] != 0 {
			continue
		}
		stack := []oldDepFrame{{root, 0}}
		state[root] = 1
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next < len(edges[f.n]) {
				c := edges[f.n][f.next]
				f.next++
				switch state[c] {
				case 0:
					state[c] = 1
					stack = append(stack, oldDepFrame{c, 0})
				case 1:
					return p.cycleError(stack, c)
				}
				continue
			}
			d := 1
			for _, c := range edges[f.n] {
				d = max(d, depth[c]+1)
			}
			depth[f.n] = d
			state[f.n] = 2
			if d > p.lim.MaxDeclarationDepth {
				n := p.order[f.n]
				return p.limitf(n.pos, "%s %s starts a chain of %d declarations that use one another, more than the limit of %d", declKindNames[n.kind], n.name, d, p.lim.MaxDeclarationDepth)
			}
			stack = stack[:len(stack)-1]
		}
	}
	return nil
}

// oldDepFrame is one step of the dependency walk.
type oldDepFrame struct{ n, next int }

func (p *parser) cycleError(stack []oldDepFrame, c int) error {
	start := 0
	for k, f := range stack {
		if f.n == c {
			start = k
			break
		}
	}
	var names []string
	for _, f := range stack[start:] {
		names = append(names, p.order[f.n].name)
	}
	names = append(names, p.order[c].name)
	d := p.order[c]
	if len(names) > 8 {
		names = append(names[:4], append([]string{"..."}, names[len(names)-3:]...)...)
	}
	return p.errf(d.pos, "%s %s depends on itself: %s", declKindNames[d.kind], d.name, strings.Join(names, " -> "))
}
