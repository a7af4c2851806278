//go:build unix

package confine

import "syscall"

// openNonBlock keeps open(2) from waiting for a writer when the file is a named pipe.
const openNonBlock = syscall.O_NONBLOCK
