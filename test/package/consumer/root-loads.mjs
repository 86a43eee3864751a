// What importing the root entry loads (run with the load recorder): nothing but the clients' own modules.
await import('compute-contract');
