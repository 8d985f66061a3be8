/* outfile.h - outputs that appear complete or not at all.
 *
 * Every output is first written completely to "<final>.tmp.<pid>"; only
 * when all of a command's outputs are written are they renamed into place
 * (outfile_commit), in the order given (put the file others are judged by,
 * e.g. the main CSV, last), so a failure leaves the previous outputs (or
 * none) and never a mix.  Directories are created as needed. */
#ifndef OUTFILE_H
#define OUTFILE_H

#include <stdio.h>

struct outfile {
    char final[1200];
    char tmp[1300];
    FILE *f;
    int written; /* closed successfully */
};

/* Open final's temporary.  Returns the stream, or NULL with a message on
 * stderr. */
FILE *outfile_open(struct outfile *o, const char *final);
/* Close; returns 0, or -1 (message printed, temporary removed). */
int outfile_close(struct outfile *o);
/* Rename the written temporaries into place in order.  On a failure the
 * rest are removed.  Returns 0 or -1. */
int outfile_commit(struct outfile *o, size_t n);
/* Remove the temporaries (after a failure). */
void outfile_discard(struct outfile *o, size_t n);
/* mkdir -p; 0 or -1 (errno set). */
int mkdirs(const char *dir);
/* Can files be created in dir (made with mkdirs if missing)?  Checked
 * without creating anything that stays: every existing part of the path
 * must be a directory, and a probe file is created and removed in dir, or
 * in its deepest existing ancestor when dir does not exist yet.  Returns 0,
 * or -1 with a message naming the path at fault in err ("X is not a
 * directory", "cannot create files in X: reason", ...). */
int outfile_check_dir(const char *dir, char *err, size_t errlen);

#endif
