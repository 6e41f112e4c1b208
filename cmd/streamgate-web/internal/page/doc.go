// Package page holds what the browser demo (cmd/streamgate-web/app)
// shows, in plain Go that builds and tests on the desktop too: the
// result the page publishes when it finishes ([Result], the JSON a test
// reads back), the rows of its table ([Rows]) and its chart ([Chart], an
// SVG document).
//
// Everything here is a pure function of its arguments and safe for
// concurrent use.
package page
