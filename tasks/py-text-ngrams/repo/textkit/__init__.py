"""Tokenizing and word statistics for English text."""
from .freq import top_words, word_counts
from .stopwords import STOPWORDS, remove_stopwords
from .tokenize import sentences, tokenize

__all__ = ["STOPWORDS", "remove_stopwords", "sentences", "tokenize", "top_words", "word_counts"]
