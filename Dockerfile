# One image for the API and the worker (docker-compose.yml picks the command).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements.txt constraints.txt ./
RUN pip install --no-cache-dir -r requirements.txt -c constraints.txt
COPY api ./api
COPY worker ./worker
COPY shared ./shared
COPY openapi.yaml gunicorn.conf.py ./
RUN useradd --create-home evo
USER evo
EXPOSE 8000
CMD ["gunicorn", "--config", "gunicorn.conf.py", "--bind", "0.0.0.0:8000", "api.wsgi:app"]
