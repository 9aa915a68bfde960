/* worker.h: launches in a separate process, one JSON line at a time.
 *
 * A server (the dashboard) must not go down with a kernel launch that
 * crashes, hangs or exhausts memory. `mytriton worker` serves the run
 * library (run.h) over a pipe: each line of its standard input is a
 * request (a launch spec, the source, options, limits), each line of its
 * standard output the answer, in request order. Every request runs in a
 * child process of its own, forked for it, under the request's limits
 * (wall time, memory, CPU time): a request that crashes or times out gets
 * an error answer and the worker goes on with the next one. docs/runtime.md
 * describes the protocol.
 */
#ifndef MT_RUNTIME_WORKER_H
#define MT_RUNTIME_WORKER_H

/* Serve requests from in_fd until end of input or a "shutdown" request,
 * answering on out_fd. Returns the process exit status: 0 after end of
 * input or shutdown, 1 when out_fd cannot be written (the client went
 * away) or in_fd cannot be read. */
int mt_worker_serve(int in_fd, int out_fd);

/* The longest request line accepted: a spec and a source at their
 * limits, with room for JSON escaping. */
#define MT_WORKER_MAX_LINE ((size_t)64 << 20)
/* The wall-time limit of a request that gives none. */
#define MT_WORKER_DEFAULT_TIMEOUT_MS 60000

#endif
