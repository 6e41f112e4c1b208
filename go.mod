module github.com/streamgate/streamgate

go 1.26

require (
	github.com/anishathalye/porcupine v1.3.1 // indirect
	github.com/puzpuzpuz/xsync/v3 v3.5.1
	github.com/rajveermalviya/go-webgpu/wgpu v0.17.1
	github.com/stretchr/testify v1.12.1 // indirect
	go.uber.org/goleak v1.3.0 // indirect
)
