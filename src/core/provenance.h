/* provenance.h - where a result came from: the build (git revision and
 * dirty state embedded at build time, compiler, flags), the host, the
 * libraries and tools, and each trace's SHA-256.  Used by the sidecar
 * writer; `hwprof --version` prints the build part. */
#ifndef PROVENANCE_H
#define PROVENANCE_H

#include <jansson.h>

/* {"hwprof": version, "git_revision": "...", "git_sources_dirty": bool,
 *  "git_config": state, "git_dirty": bool, "compiler": "...", "cflags": "..."}
 * git_revision and git_sources_dirty are fixed at build time
 * (scripts/buildinfo.sh: src/, tracegen/, experiments/ differ from the
 * revision, untracked files included); git_config is the state of the
 * config file config_path at run time against that revision
 * (prov_git_file_state); git_dirty is true unless the sources are clean and
 * the config is "clean".  config_path NULL: no git_config, git_dirty is
 * the sources' state. */
json_t *prov_build(const char *config_path);
/* The state of file `path` in the git checkout that holds it, against
 * revision `rev`: "clean" (the revision has this file with the same
 * content), "modified" (it has it with other content), "untracked" (it
 * does not have it: a new, untracked or ignored file), "unknown" (rev is
 * "unknown", git cannot be run, the file is not in a git checkout, or rev
 * is not in that checkout's repository).  One `git ls-tree` process (no
 * shell); deterministic for the same file, revision and repository. */
const char *prov_git_file_state(const char *path, const char *rev);
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
