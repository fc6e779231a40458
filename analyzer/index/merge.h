/* index/merge: 'heaplint merge-index -o OUT IN...' — the indexes that
 * shards or build actions wrote, merged into one (units of a later IN
 * replace those of the same name), written whole or not at all: through a
 * temporary file beside OUT and a rename. Exit status: 0 merged, 2 usage
 * or an input that is not a heaplint index (named, with the reason). */
#ifndef HEAPLINT_INDEX_MERGE_H
#define HEAPLINT_INDEX_MERGE_H

int hl_merge_index_main(int argc, char **argv);

#endif
