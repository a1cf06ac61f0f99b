/* Big tables probed at random (the engines' transposition tables). */
#include "renversi/core.h"

#include <stdint.h>
#include <stdlib.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define TABLE_HUGE_PAGE ((size_t)2 << 20)

#if defined(__linux__) && defined(MADV_HUGEPAGE)
/* The length of the mapping of a table of `bytes` (2 MB or more): whole huge pages. */
static size_t mapped_len(size_t bytes) {
    return (bytes + TABLE_HUGE_PAGE - 1) / TABLE_HUGE_PAGE * TABLE_HUGE_PAGE;
}
#endif

void *rv_table_alloc(size_t bytes) {
    if (bytes == 0) return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= TABLE_HUGE_PAGE) {
        /* Fresh anonymous pages (zero, touched only when probed), aligned to 2 MB and
           marked for transparent huge pages: with 4 KB pages a random probe usually
           misses the TLB as well as the caches. The mapping is made 2 MB longer and its
           ends cut off to get the alignment. */
        if (bytes > SIZE_MAX - 2 * TABLE_HUGE_PAGE) return NULL;
        size_t len = mapped_len(bytes);
        uint8_t *raw = mmap(NULL, len + TABLE_HUGE_PAGE, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED) return NULL;
        size_t head = (TABLE_HUGE_PAGE - (uintptr_t)raw % TABLE_HUGE_PAGE) % TABLE_HUGE_PAGE;
        if (head) munmap(raw, head);
        munmap(raw + head + len, TABLE_HUGE_PAGE - head);
        (void)madvise(raw + head, len, MADV_HUGEPAGE); /* only a hint */
        return raw + head;
    }
#endif
    return calloc(1, bytes);
}

void rv_table_free(void *table, size_t bytes) {
    if (!table) return;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= TABLE_HUGE_PAGE) {
        munmap(table, mapped_len(bytes));
        return;
    }
#endif
    free(table);
}
