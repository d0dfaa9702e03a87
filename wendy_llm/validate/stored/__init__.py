"""Comparisons with stored renders: the golden fixtures and the stored
baseline.
"""
