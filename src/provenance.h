/* provenance.h - where a result came from: the build (git revision and
 * dirty state embedded at build time, compiler, flags), the host, the
 * libraries and tools, and each trace's SHA-256.  Used by the sidecar
 * writer; `hwprof --version` prints the build part. */
#ifndef PROVENANCE_H
#define PROVENANCE_H

#include <jansson.h>

/* {"hwprof": version, "git_revision": "...", "git_dirty": bool,
 *  "compiler": "...", "cflags": "..."} */
json_t *prov_build(void);
/* {"hostname", "cpu_model", "cpus", "kernel"} */
json_t *prov_host(void);
/* {"jansson", "zstd", "gnuplot"} (gnuplot: its --version line, or null) */
json_t *prov_tools(void);
/* "2026-11-23T19:04:05Z" */
void prov_utc_now(char *buf, size_t len);
/* SHA-256 of a file as 64 hex digits.  Returns 0, or -1 (hex = "").
 * prov_file_sha256 caches it beside the file in <path>.sha256
 * ("<hex> <size> <mtime_ns>", recomputed when the size or modification time
 * differ): for traces, which are large and hashed by every run. */
int prov_file_sha256(const char *path, char hex[65]);
int prov_file_sha256_nocache(const char *path, char hex[65]);
/* One line: "hwprof 0.2.0 (git abc123+dirty, gcc 12.2.0)". */
void prov_version_line(char *buf, size_t len);

#endif
