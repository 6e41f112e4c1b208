package wgsl

// checkMemory bounds the memory a module asks for outside its buffers: the
// module-scope var<workgroup> and var<private> declarations (summed per
// address space), and every array type, struct or alias whose value a
// function body, a const or an override makes (function memory). The
// compiler takes memory in proportion: a 4 MB function-scope array took
// wgpu-native and lavapipe 2.5 GB and 9 s to compile, and a 400 MB
// workgroup array got the process killed, so these are refused before the
// compiler sees them. A type this front-end cannot size (a workgroup array
// sized by an override, say) is left to the compiler.
func (p *parser) checkMemory(res *oldResolution) error {
	var workgroup, private uint64
	for _, d := range p.order {
		switch d.kind {
		case declVar:
			if d.space != "workgroup" && d.space != "private" {
				continue
			}
			limit, total := p.lim.MaxPrivateBytes, &private
			if d.space == "workgroup" {
				limit, total = p.lim.MaxWorkgroupBytes, &workgroup
			}
			if d.typ.a < d.typ.b {
				if t, err := p.resolveType(d.typ, 0); err == nil {
					*total += t.size
					if *total > uint64(limit) {
						return p.limitf(d.pos, "var<%s> %s: %d bytes of %s memory in all, more than the limit of %d", d.space, d.name, *total, d.space, limit)
					}
				}
			}
			if err := p.checkValues(d, d.init, limit, d.space, res); err != nil {
				return err
			}
		case declFn, declConst, declOverride:
			if err := p.checkValues(d, d.whole, p.lim.MaxPrivateBytes, "function", res); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkValues refuses, in the tokens of s (part of declaration d), an array
// type or a struct or alias name whose values are larger than limit bytes;
// one inside a ptr<...> template (a pointer to a buffer) does not count. In
// a fn, a name counts where res resolved it to a module-scope declaration.
func (p *parser) checkValues(d *decl, s span, limit int, space string, res *oldResolution) error {
	for j := s.a; j < s.b && j < len(p.toks); j++ {
		t := p.toks[j]
		if t.kind != tkIdent {
			continue
		}
		next := j + 1
		hasTmpl := next < len(p.toks) && p.toks[next].tmpl && p.toks[next].text == "<"
		switch {
		case t.text == "ptr" && hasTmpl:
			j = p.matchingTmpl(next) // a pointer's store type is not a value here
			continue
		case t.text == "array" && hasTmpl:
			end := p.matchingTmpl(next)
			if rt, err := p.resolveType(span{j, end + 1}, 0); err == nil && rt.size > uint64(limit) {
				return p.limitf(t.pos, "%s: %s takes %d bytes of %s memory, more than the limit of %d", d.name, rt.name, rt.size, space, limit)
			}
			j = end
		default:
			td, ok := p.decls[t.text]
			if d.kind == declFn {
				td, ok = res.ref[j], res.ref[j] != nil
			}
			if !ok || td.kind != declStruct && td.kind != declAlias {
				continue
			}
			if rt, err := p.resolveType(span{j, j + 1}, 0); err == nil && rt.size > uint64(limit) {
				return p.limitf(t.pos, "%s: a value of %s takes %d bytes of %s memory, more than the limit of %d", d.name, rt.name, rt.size, space, limit)
			}
		}
	}
	return nil
}
