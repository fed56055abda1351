// Under vitest there is no React Server bundler condition; the real "server-only" throws there.
export {};
