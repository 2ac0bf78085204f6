/* An LD_PRELOAD shim that counts heap allocations, for bench/render.sh: every malloc, calloc,
 * realloc, posix_memalign and aligned_alloc call adds one to a counter that PocketBench reads
 * through dlsym("pocket_malloc_count"). The memory itself comes from glibc's own allocator.
 *   cc -O2 -shared -fPIC -o malloc-count.so bench/malloc-count.c */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static uint64_t calls;

static void count(void) { __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED); }

void *malloc(size_t size) { count(); return __libc_malloc(size); }
void *calloc(size_t count_, size_t size) { count(); return __libc_calloc(count_, size); }
void *realloc(void *pointer, size_t size) { count(); return __libc_realloc(pointer, size); }
void *aligned_alloc(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    count();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

uint64_t pocket_malloc_count(void) { return __atomic_load_n(&calls, __ATOMIC_RELAXED); }
