# The checkout as a container: Next's standalone server (next.config.mjs output: "standalone"),
# run as an unprivileged user, with a health check a container runtime can use.
# Build: docker build -t bank-checkout .   Run with a Postgres: compose.yaml, README "Deploy".
# Node 24, a supported LTS line (Node 20's support ended in April 2026): docs/adr/0023-node-runtime.md.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY --from=deps /app/node_modules ./node_modules
COPY . .
# `next build` copies any .env into the standalone folder: settings come at run time, so none may
# ship in the image even if the build context had one (.dockerignore keeps it out already).
RUN npm run build && rm -f .next/standalone/.env .next/standalone/.env.*

FROM ${NODE_IMAGE} AS run
WORKDIR /app
# Idle keep-alive connections outlive a load balancer's (scripts/start-plan.ts, KEEP_ALIVE_MS).
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    HOSTNAME=0.0.0.0 \
    KEEP_ALIVE_TIMEOUT=65000
RUN groupadd --system --gid 1001 checkout && useradd --system --uid 1001 --gid checkout --home-dir /app checkout
# The standalone server with the files it needs (migrations included), then what it serves as is.
COPY --from=build --chown=checkout:checkout /app/.next/standalone ./
COPY --from=build --chown=checkout:checkout /app/.next/static ./.next/static
COPY --from=build --chown=checkout:checkout /app/public ./public
USER checkout
EXPOSE 3000
# Liveness only (GET /api/health); a load balancer should route by GET /api/health/ready.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM reaches node directly (exec form): it finishes the requests in flight, then stops.
CMD ["node", "server.js"]
