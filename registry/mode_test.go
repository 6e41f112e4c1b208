package registry_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/streamgate/streamgate/registry"
)

func TestStreamMode(t *testing.T) {
	assert.Equal(t, "Execute", registry.Execute.String())
	assert.Equal(t, "Discard", registry.Discard.String())
	assert.Equal(t, registry.Discard, registry.Execute.Opposite())
	assert.Equal(t, registry.Execute, registry.Discard.Opposite())
	assert.PanicsWithError(t, "registry: invalid StreamMode 2", func() { _ = registry.StreamMode(2).String() })
	assert.PanicsWithError(t, "registry: invalid StreamMode 7", func() { registry.StreamMode(7).Opposite() })
}

func TestProcessMode(t *testing.T) {
	tests := []struct {
		p    registry.ProcessMode
		name string
		mode registry.StreamMode
	}{
		{registry.ProcessExecute, "Execute", registry.Execute},
		{registry.ProcessCompile, "Compile", registry.Discard},
		{registry.ProcessCompileAndAutotune, "CompileAndAutotune", registry.Discard},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.name, tc.p.String())
			assert.Equal(t, tc.mode, tc.p.StreamMode())
		})
	}
	assert.PanicsWithError(t, "registry: invalid ProcessMode 3", func() { _ = registry.ProcessMode(3).String() })
	assert.PanicsWithError(t, "registry: invalid ProcessMode 9", func() { registry.ProcessMode(9).StreamMode() })
}

func TestServiceStreamString(t *testing.T) {
	assert.Equal(t, "3/7", registry.ServiceStream{Service: 3, Stream: 7}.String())
}
