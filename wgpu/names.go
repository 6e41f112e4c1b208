package wgpu

// String returns "Default", "LowPower" or "HighPerformance"; "Unknown" for
// any other value.
func (p PowerPreference) String() string {
	switch p {
	case PowerPreferenceDefault:
		return "Default"
	case PowerPreferenceLowPower:
		return "LowPower"
	case PowerPreferenceHighPerformance:
		return "HighPerformance"
	}
	return "Unknown"
}

var logLevelNames = [...]string{"Off", "Error", "Warn", "Info", "Debug", "Trace"}

// String returns the level's name ("Off", "Error", …, "Trace"); "Unknown"
// for any other value.
func (l LogLevel) String() string {
	if int(l) < len(logLevelNames) {
		return logLevelNames[l]
	}
	return "Unknown"
}
