// The error scope record both cgo files of package wgpu fill: each shim
// pops its scopes with sg_scope_cb, and scopeError (native.go) turns the
// record into an *Error. Included by native.go and transfer_native.go.
#ifndef STREAMGATE_WGPU_SCOPE_H
#define STREAMGATE_WGPU_SCOPE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// sgScope receives the first error of the scopes a shim pops; msg is
// malloc'd.
typedef struct sgScope { uint32_t type; char *msg; } sgScope;

static void sg_scope_cb(uint32_t type, char const *message, void *userdata) {
	sgScope *s = (sgScope *)userdata;
	if (type == 0 || s->type != 0) return;
	s->type = type;
	s->msg = strdup(message ? message : "");
}

#endif
