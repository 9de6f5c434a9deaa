/*
 * Swift's libdispatch on Linux traps (SIGILL) when its worker-pool monitor cannot open a file:
 * once a second, if a global queue has work waiting, it opens /proc/TID/stat of each worker
 * and, when that open fails, crashes with "workq: registered worker exited prematurely"
 * (src/event/workqueue.c, _dispatch_workq_count_runnable_workers). A process that has used up
 * its file descriptors (EMFILE) then dies, whatever it would have done about them. Every Swift
 * program on Linux runs its tasks on these queues. This shows it with libdispatch alone, no rws
 * and no Swift: the global queue is kept busy (workers asleep, more work waiting), then the
 * soft limit on open files is brought down to the three standard descriptors.
 *
 * Exit status: killed by SIGILL when the defect is there; 0 when the program outlived three
 * monitor ticks (it is not); 1 when something else failed. With `--keep-limit` the limit stays
 * as it was, and the same work ends with 0: the crash is the descriptors' doing.
 *   cc -Wall -Werror -I/opt/swift/usr/lib/swift -o workq scripts/lib/libdispatch_workq_emfile.c \
 *      -L/opt/swift/usr/lib/swift/linux -Wl,-rpath,/opt/swift/usr/lib/swift/linux -ldispatch
 */
#include <dispatch/dispatch.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static void sleep_a_while(void *context)
{
    (void)context;
    sleep(5);
}

int main(int argc, char **argv)
{
    dispatch_queue_t queue = dispatch_get_global_queue(DISPATCH_QUEUE_PRIORITY_DEFAULT, 0);
    struct rlimit limit;
    int i;

    /* More work than workers: the queue has work waiting at every tick of the monitor. */
    for(i = 0; i < 256; i++)
        dispatch_async_f(queue, NULL, sleep_a_while);
    if(argc > 1 && strcmp(argv[1], "--keep-limit") == 0) {
        sleep(3);
        return 0;
    }
    if(getrlimit(RLIMIT_NOFILE, &limit) != 0) {
        perror("getrlimit");
        return 1;
    }
    limit.rlim_cur = 3;
    if(setrlimit(RLIMIT_NOFILE, &limit) != 0) {
        perror("setrlimit");
        return 1;
    }
    sleep(3);
    return 0;
}
