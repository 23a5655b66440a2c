# syntax=docker/dockerfile:1
# slack-agent-bridge: the compiled bot on Node 24 LTS with production dependencies only.
#   docker build -t slack-agent-bridge .
#   docker run --env-file .env -p 3000:3000 slack-agent-bridge

# --- build: the same checks CI runs, then the compiled JavaScript ---
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# Typecheck and lint as CI does (.ci/run). The tests need a Redis and start servers: they run in
# CI (`npm test`), not in the image build.
RUN npm run typecheck \
 && npm run lint \
 && npm run build \
 && npm prune --omit=dev --no-audit --no-fund

# --- runtime: dist/ + production node_modules, as a non-root user ---
FROM node:24-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
USER node
# PORT (default 3000) serves POST /slack/events (HTTP mode), GET /healthz and GET /metrics.
EXPOSE 3000
# The slim image has no curl: ask Node itself. /healthz answers 200 once the bot serves Slack
# traffic (in Socket Mode: once the socket is connected).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node directly (not `npm start`): no build step at run time, and signals reach the process.
CMD ["node", "dist/src/main.js"]
