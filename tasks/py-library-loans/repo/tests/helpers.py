from datetime import date

from catalog import Item
from circulation import LibraryCalendar

NOVEL = Item("B-1", "The Long Winter", "book")
FILM = Item("D-7", "Nosferatu", "dvd")
ATLAS = Item("R-2", "World Atlas", "reference")


def sundays_closed():
    return LibraryCalendar(closed_weekdays=[6])


def d(text):
    return date.fromisoformat(text)
