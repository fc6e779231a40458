int c(void) { return 0; }
