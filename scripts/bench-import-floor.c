// The floor of scripts/bench-import: the system calls any importer of an OpenPose dataset
// (`<root>/<label>/<recording>/*.json`, one file per frame) makes, and nothing else: list each
// recording's folder, then open, fstat, read whole and close every frame file. No parsing, no
// hashing, no output. Prints `files seconds` (the loop's own timing, without process start-up).
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static long files;
static volatile unsigned long checksum;  // keeps the reads from being optimized away
static char buffer[1 << 20];

static int has_json_suffix(const char *name) {
    size_t length = strlen(name);
    return length > 5 && strcmp(name + length - 5, ".json") == 0;
}

static void read_recording(int parent, const char *name) {
    int folder = openat(parent, name, O_RDONLY | O_DIRECTORY);
    if (folder < 0) return;
    DIR *listing = fdopendir(folder);
    if (!listing) { close(folder); return; }
    struct dirent *entry;
    while ((entry = readdir(listing))) {
        if (!has_json_suffix(entry->d_name)) continue;
        int file = openat(folder, entry->d_name, O_RDONLY);
        if (file < 0) continue;
        struct stat status;
        if (fstat(file, &status) == 0) {
            ssize_t count;
            while ((count = read(file, buffer, sizeof buffer)) > 0) checksum += (unsigned char)buffer[count - 1];
        }
        close(file);
        files++;
    }
    closedir(listing);
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s ROOT\n", argv[0]); return 2; }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    DIR *root = opendir(argv[1]);
    if (!root) { perror(argv[1]); return 1; }
    struct dirent *label;
    while ((label = readdir(root))) {
        if (label->d_name[0] == '.') continue;
        int labelFolder = openat(dirfd(root), label->d_name, O_RDONLY | O_DIRECTORY);
        if (labelFolder < 0) continue;
        DIR *recordings = fdopendir(labelFolder);
        if (!recordings) { close(labelFolder); continue; }
        struct dirent *recording;
        while ((recording = readdir(recordings))) {
            if (recording->d_name[0] != '.') read_recording(labelFolder, recording->d_name);
        }
        closedir(recordings);
    }
    closedir(root);
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (end.tv_sec - start.tv_sec) + 1e-9 * (end.tv_nsec - start.tv_nsec);
    printf("%ld %.3f\n", files, seconds);
    return 0;
}
