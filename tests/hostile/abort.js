// process.abort(): SIGABRT, RE naming SIGABRT.
process.abort();
