# One image for the API and the worker (docker-compose.yml picks the command).

# The compiled build the worker runs (shared/infra/accel.py): mypyc and a C compiler are needed only
# here; the image keeps just var/accel/<digest>/. Should the build ever fail, the image still
# builds and the worker runs the plain sources (it logs one line saying so).
FROM python:3.11-slim AS accel
ENV PYTHONDONTWRITEBYTECODE=1
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
COPY requirements.txt constraints.txt ./
RUN pip install --no-cache-dir -r requirements.txt -c constraints.txt \
    && pip install --no-cache-dir -c constraints.txt mypy setuptools
COPY worker ./worker
COPY shared ./shared
RUN mkdir -p var/accel && (python -m shared.infra.accel build || true)

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements.txt constraints.txt ./
RUN pip install --no-cache-dir -r requirements.txt -c constraints.txt
COPY api ./api
COPY worker ./worker
COPY shared ./shared
COPY openapi.yaml gunicorn.conf.py ./
# The compiled message catalogues of the pages, labels and errors (docs/languages.md).
COPY translations ./translations
COPY --from=accel /app/var/accel ./var/accel
RUN useradd --create-home evo
USER evo
EXPOSE 8000
CMD ["gunicorn", "--config", "gunicorn.conf.py", "--bind", "0.0.0.0:8000", "api.wsgi:app"]
