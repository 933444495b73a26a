"""An animal shelter's API in FastAPI, which publishes its own OpenAPI 3.1 document at /openapi.json.

The generator tests read that document, compare the generated code with the committed snapshot,
and call this server through it: a list paged with a cursor to the end, a create whose body is a
discriminated union, a delete, and a typed error.

Run: python shelter.py (it prints the port it listens on, on 127.0.0.1), or python shelter.py --openapi
"""
import json
import socket
import sys
import uuid
from datetime import datetime, timezone
from typing import Annotated, Literal, Optional, Union

import uvicorn
from fastapi import FastAPI, HTTPException, Query
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

app = FastAPI(title="Shelter", version="1.0.0")


class Cat(BaseModel):
    species: Literal["cat"]
    indoor: bool = True


class Dog(BaseModel):
    species: Literal["dog"]
    good_boy: bool = True
    weight_kg: Optional[float] = None


class AnimalCreate(BaseModel):
    name: str
    details: Annotated[Union[Cat, Dog], Field(discriminator="species")]
    tags: list[str] = []


class Animal(AnimalCreate):
    id: uuid.UUID
    admitted_at: datetime


class AnimalPage(BaseModel):
    items: list[Animal]
    next_cursor: Optional[str] = None


class Problem(BaseModel):
    detail: str


animals: dict[uuid.UUID, Animal] = {}


def admit(name: str, details: Union[Cat, Dog], day: int) -> None:
    animal_id = uuid.UUID(int=day)
    animals[animal_id] = Animal(id=animal_id, name=name, details=details,
                                admitted_at=datetime(2026, 1, day, 9, 30, tzinfo=timezone.utc))


for day, (name, details) in enumerate([("Tom", Cat(species="cat")), ("Rex", Dog(species="dog", weight_kg=31.5)),
                                       ("Luna", Cat(species="cat", indoor=False)), ("Max", Dog(species="dog"))], start=1):
    admit(name, details, day)


@app.get("/animals", tags=["animals"], summary="List the animals", response_model=AnimalPage)
def list_animals(cursor: Optional[str] = None, limit: Annotated[int, Query(ge=1, le=50)] = 2) -> AnimalPage:
    """Animals in order of admission, a page at a time."""
    ordered = sorted(animals.values(), key=lambda animal: animal.admitted_at)
    start = int(cursor) if cursor else 0
    page = ordered[start:start + limit]
    following = start + limit
    return AnimalPage(items=page, next_cursor=str(following) if following < len(ordered) else None)


@app.post("/animals", tags=["animals"], summary="Admit an animal", status_code=201, response_model=Animal)
def create_animal(body: AnimalCreate) -> Animal:
    animal = Animal(id=uuid.uuid4(), admitted_at=datetime(2026, 2, 1, 12, 0, tzinfo=timezone.utc), **body.model_dump())
    animals[animal.id] = animal
    return animal


@app.get("/animals/{animal_id}", tags=["animals"], summary="One animal", response_model=Animal,
         responses={404: {"model": Problem, "description": "No such animal"}})
def get_animal(animal_id: uuid.UUID) -> Animal:
    if animal_id not in animals:
        return JSONResponse(status_code=404, content={"detail": f"no animal {animal_id}"})
    return animals[animal_id]


@app.delete("/animals/{animal_id}", tags=["animals"], summary="Adopted: remove an animal", status_code=204,
            responses={404: {"model": Problem, "description": "No such animal"}})
def delete_animal(animal_id: uuid.UUID) -> Response:
    if animals.pop(animal_id, None) is None:
        return JSONResponse(status_code=404, content={"detail": f"no animal {animal_id}"})
    return Response(status_code=204)


@app.get("/health", summary="Whether the shelter answers")
def health() -> dict[str, str]:
    return {"status": "ok"}


if __name__ == "__main__":
    if "--openapi" in sys.argv:
        print(json.dumps(app.openapi(), indent=1))
    else:
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(128)  # connections queue from now on, before uvicorn accepts them
        print(listener.getsockname()[1], flush=True)
        uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[listener])
