# syntax=docker/dockerfile:1
# slack-agent-bridge: the compiled bot on Node 24 LTS with production dependencies only.
#   docker build -t slack-agent-bridge .
#   docker run --env-file .env -p 3000:3000 slack-agent-bridge

# --- dev: the sources with every dependency (compose's sandbox profile runs the agent-service
# simulator and the Slack stand-in from it: dev/simulator and dev/slack-standin through tsx) ---
FROM node:24-slim AS dev
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .

# --- build: the same checks CI runs, then the compiled JavaScript ---
FROM dev AS build
# Typecheck and lint as CI does (.ci/run). The tests need a Redis and start servers: they run in
# CI (`npm test`), not in the image build.
RUN npm run typecheck \
 && npm run lint \
 && npm run build \
 && npm prune --omit=dev --no-audit --no-fund

# --- runtime: dist/ + production node_modules, as a non-root user. dist/ is src/ compiled
# (tsconfig.build.json): the stand-ins in dev/ are not in it ---
FROM node:24-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/scripts/healthcheck.mjs ./scripts/healthcheck.mjs
USER node
# PORT (default 3000) serves POST /slack/events (HTTP mode), GET /healthz and GET /metrics.
EXPOSE 3000
# /healthz answers 200 once the bot serves Slack traffic (in Socket Mode: once the socket is
# connected). The check asks on the bot's own HOST and PORT (scripts/healthcheck.mjs: no curl here).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "scripts/healthcheck.mjs"]
# node directly (not `npm start`): no build step at run time, and signals reach the process.
CMD ["node", "dist/src/main.js"]
