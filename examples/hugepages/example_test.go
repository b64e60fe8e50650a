package hugepages_test

import (
	"errors"
	"log"

	"github.com/arbitergo/arbiter/examples/hugepages"
)

// A host advises the heap once its World holds its players' state.
func ExampleAdvise() {
	st, err := hugepages.Advise()
	switch {
	case errors.Is(err, hugepages.ErrUnsupported):
		log.Print("no huge pages here: the World runs on 4 KiB pages")
	case err != nil:
		log.Printf("huge pages: %v", err)
	default:
		log.Printf("huge pages: %d MiB advised, %d MiB collapsed", st.Advised>>20, st.Collapsed>>20)
	}
}
