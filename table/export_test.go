package table

// Shortcut reports whether the Driver takes the shortcut between instant
// bots in its current game.
func (d *Driver) Shortcut() bool { return d.fast }
