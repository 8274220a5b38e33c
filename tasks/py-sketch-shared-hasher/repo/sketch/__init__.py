"""Probabilistic and distributed-systems helpers: a Bloom filter and a consistent-hash ring."""
from .bloom import BloomFilter
from .ring import HashRing

__all__ = ["BloomFilter", "HashRing"]
