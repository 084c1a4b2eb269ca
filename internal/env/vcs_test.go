package env

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseVCS(t *testing.T) {
	v := ParseVCS([]debug.BuildSetting{{Key: "-compiler", Value: "gc"}, {Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "45ab9a7"}, {Key: "vcs.time", Value: "2026-11-30T20:02:50Z"}, {Key: "vcs.modified", Value: "true"}})
	require.NotNil(t, v)
	assert.Equal(t, "git", v.System)
	assert.Equal(t, "45ab9a7", v.Revision)
	assert.Equal(t, "2026-11-30T20:02:50Z", v.Time)
	require.NotNil(t, v.Modified)
	assert.True(t, *v.Modified)
	assert.Nil(t, ParseVCS([]debug.BuildSetting{{Key: "GOOS", Value: "linux"}}), "go test's default build has no stamp")
	v = ParseVCS([]debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}})
	require.NotNil(t, v)
	assert.Nil(t, v.Modified, "no vcs.modified: unknown")
}
