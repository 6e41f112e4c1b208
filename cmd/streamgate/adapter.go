package main

import "flag"

// adapterUsage documents the -adapter flag of every command that opens a
// device (flag prints it as "-adapter index|name").
const adapterUsage = "the adapter to open, as \"streamgate info\" lists them: its `index|name` " +
	"(a name matches exactly, or as a unique substring; case ignored); empty lets the driver choose"

// adapterFlag adds -adapter to fs and returns where its value goes.
func adapterFlag(fs *flag.FlagSet) *string {
	return fs.String("adapter", "", adapterUsage)
}
