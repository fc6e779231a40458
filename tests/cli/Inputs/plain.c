int plain(void) { return 0; }
