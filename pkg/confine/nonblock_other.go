//go:build !unix

package confine

// openNonBlock is not needed where named pipes do not live in the file tree.
const openNonBlock = 0
